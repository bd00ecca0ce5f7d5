from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext_lazy as _

from games import rules_pages
from games.browse import games_page
from games.browse_forms import GamesListForm
from games.render import HAND_GAMES, legend, pieces_css

# The four games as the site presents them.
GAMES = {
    "carolo": {
        "name": "Le Carolo",
        "summary": _(
            "Eight by eight squares, five kinds of pieces and only four kinds of capture: "
            "corner the enemy Ego with your bouncing Carolo, or lead your own Ego home."
        ),
    },
    "carge": {
        "name": "Le Carge",
        "summary": _(
            "A small five by five board split by barriers: place your eight pawns one "
            "by one, then move them like rooks to outplay your opponent."
        ),
    },
    "rococo": {
        "name": "Rococo",
        "summary": _(
            "A ten by ten board where pieces move like queens but capture in strange "
            "ways: by pushing, pulling, swapping, leaping or imitating."
        ),
    },
    "shuuro": {
        "name": "Shuuro",
        "summary": _(
            "Chess on twelve by twelve squares with an army you buy yourself: "
            "recruit in secret, deploy your pieces, then fight."
        ),
    },
}


def home(request):
    ctx = {"games": GAMES}
    if request.user.is_authenticated:
        from games import queries

        user = request.user
        ctx.update(
            to_move=queries.games_awaiting_move(user),
            waiting=queries.games_awaiting_opponent(user),
            challenges_to=queries.challenges_to(user),
            challenges_by=queries.challenges_by(user),
            finished=queries.finished_games(user),
        )
        ctx["turn_count"] = len(ctx["to_move"])  # the header's count, without a query
    return render(request, "home.html", ctx)


def games_list(request):
    """Every game in progress, or ended, for anyone to find one to watch."""
    form = GamesListForm(request.GET)
    filters = form.filters()
    page = games_page(filters, request.GET.get("page"))
    context = {"form": form, "filters": filters, "page": page}
    template = "games/games_list.html"
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.history_restore_request:  # the list only
        template += "#games"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def rules_index(request):
    return render(request, "rules/index.html", {"games": GAMES})


def rules_page(request, game):
    if game == "shuuro-mini":  # Mini-Shuuro is a section of Shuuro's page
        return redirect(reverse("rules_page", args=["shuuro"]) + "#mini-shuuro")
    if game not in GAMES:
        raise Http404("No such game")
    text = rules_pages.rules_file(game).read_text(encoding="utf-8")
    context = {
        "game": GAMES[game],
        "key": game,
        "body": rules_pages.render_rules(game, text),
        # the legend goes where the text puts [legend], else above the text
        "legend": None if rules_pages.has_legend(text) else legend(game),
        "pieces_css": pieces_css(game),
        "hands_css": game in HAND_GAMES,
    }
    return render(request, "rules/page.html", context)
