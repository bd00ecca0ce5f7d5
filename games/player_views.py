"""Leaderboards and the player search."""

from django.http import Http404
from django.shortcuts import render

from accounts.models import User
from games.leaderboards import INDEX_TOP, leaderboard
from games.models import Variant

SEARCH_LIMIT = 20


def leaderboard_index(request):
    boards = [(key, name, leaderboard(key, INDEX_TOP)) for key, name in Variant.choices]
    return render(request, "games/leaderboard_index.html", {"boards": boards})


def leaderboard_page(request, game):
    if game not in Variant.values:
        raise Http404("No such game")
    context = {
        "variant": game,
        "name": Variant(game).label,
        "ratings": leaderboard(game),
        "variants": Variant.choices,
    }
    return render(request, "games/leaderboard.html", context)


def search_players(prefix: str) -> list[User]:
    """Active players whose username starts with ``prefix``, any case; at most 20."""
    prefix = prefix.strip().removeprefix("@")
    if not prefix:
        return []
    found = User.objects.filter(username__istartswith=prefix, is_active=True)
    return list(found.order_by("username")[:SEARCH_LIMIT])


def players(request):
    q = request.GET.get("q", "")
    context = {"q": q, "found": search_players(q)}
    template = "games/players.html#results" if request.htmx else "games/players.html"
    return render(request, template, context)
