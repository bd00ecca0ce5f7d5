"""The tournaments pages: the list (with the form to make one), one tournament, its actions."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games import services, tournaments
from games.challenge_views import _describe_options, _new_context
from games.forms import TournamentForm
from games.models import Game, Rating, Tournament

ACTIONS = {
    "join": (tournaments.join, gettext_lazy("You have joined the tournament.")),
    "leave": (tournaments.leave, gettext_lazy("You have left the tournament.")),
    "start": (tournaments.start, gettext_lazy("The tournament has started: its games are on.")),
    "cancel": (tournaments.cancel, gettext_lazy("The tournament is cancelled.")),
}


def tournament_list(request, form: TournamentForm | None = None, status: int = 200):
    ctx = tournaments.lists()
    if request.user.is_authenticated and not request.user.is_bot:
        form = form or TournamentForm(user=request.user)
        ctx.update(_new_context(form))
    return render(request, "games/tournaments.html", ctx, status=status)


@login_required
@require_POST
def tournament_new(request):
    form = TournamentForm(request.POST, user=request.user)
    if form.is_valid():
        data = form.cleaned_data
        try:
            tournament = tournaments.create_tournament(
                request.user,
                name=data["name"],
                variant=data["game"],
                options=data["options"],
                days_per_move=data["days_per_move"],
                rated=data["mode"] == "rated",
                max_players=data["max_players"],
            )
        except services.GameError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Your tournament is open: other players may join it."))
            return redirect("tournament", tournament_id=tournament.pk)
    return tournament_list(request, form, status=400)


def tournament_detail(request, tournament_id, error: services.GameError | None = None):
    found = Tournament.objects.select_related("creator")
    tournament = found.filter(pk=services.row_key(tournament_id)).first()
    if tournament is None:
        raise Http404
    entrants = tournaments.entrants_of(tournament)
    games = list(
        tournament.games.only(
            "id", "white_id", "black_id", "status", "winner", "tournament_id", "created_at"
        )
    )
    table = tournaments.standings(tournament, entrants, games)
    ratings = {
        rating.user_id: rating.display
        for rating in Rating.objects.filter(
            user_id__in=[player.pk for player in entrants], variant=tournament.variant
        ).only("user_id", "variant", "rating", "deviation")
    }
    start_rating = Rating().display
    user = request.user
    is_creator = user.is_authenticated and user.pk == tournament.creator_id
    entered = user.is_authenticated and any(player.pk == user.pk for player in entrants)
    is_open = tournament.status == Tournament.Status.OPEN
    ctx = {
        "tournament": tournament,
        "options": _describe_options(tournament),
        "entrants": [(player, ratings.get(player.pk, start_rating)) for player in entrants],
        "standings": [
            {
                "row": row,
                "points": tournaments.points_text(row.points),
                "sb": tournaments.points_text(row.sonneborn_berger),
                "rating": ratings.get(row.player.pk, start_rating),
            }
            for row in table
        ],
        "crosstable": _crosstable(table, games),
        "can_join": tournaments.may_join(user, tournament, entrants),
        "can_leave": is_open and entered and not is_creator,
        "can_start": is_open and is_creator and len(entrants) >= tournaments.MIN_PLAYERS,
        "can_cancel": is_open and is_creator,
        "min_players": tournaments.MIN_PLAYERS,
        "error": error.message if error else "",
    }
    return render(request, "games/tournament.html", ctx, status=error.status if error else 200)


@login_required
@require_POST
def tournament_action(request, tournament_id, action):
    if action not in ACTIONS:
        raise Http404
    act, done = ACTIONS[action]
    try:
        act(request.user, tournament_id)
    except services.NotFound:
        raise Http404 from None
    except services.GameError as error:
        return tournament_detail(request, tournament_id, error)
    messages.success(request, str(done))
    if action == "cancel":
        return redirect("tournaments")
    return redirect("tournament", tournament_id=tournament_id)


RESULT_WORDS = {
    "win": gettext_lazy("won"),
    "draw": gettext_lazy("drawn"),
    "loss": gettext_lazy("lost"),
    "playing": gettext_lazy("being played"),
    "aborted": gettext_lazy("aborted"),
}


def _crosstable(table: list, games: list[Game]) -> list[dict]:
    """The grid, in the standings' order: for each player, a cell per opponent with
    their two games (the player's white one first), each a result and a link."""
    between: dict[tuple[int, int], Game] = {(g.white_id, g.black_id): g for g in games}
    rows = []
    for row in table:
        cells = []
        for other in table:
            if other.player.pk == row.player.pk:
                cells.append(None)
                continue
            pair = []
            for white, black, side in (
                (row.player.pk, other.player.pk, "white"),
                (other.player.pk, row.player.pk, "black"),
            ):
                game = between.get((white, black))
                if game is not None:
                    pair.append(_cell(game, side, row.player.username, other.player.username))
            cells.append(pair)
        rows.append({"row": row, "cells": cells})
    return rows


def _cell(game: Game, side: str, player: str, opponent: str) -> dict:
    if game.status == Game.Status.ACTIVE:
        mark, result = "*", "playing"
    elif game.status == Game.Status.ABORTED:
        mark, result = "–", "aborted"
    elif not game.winner:
        mark, result = "½", "draw"
    elif game.winner == side:
        mark, result = "1", "win"
    else:
        mark, result = "0", "loss"
    if side == "white":
        label = _("%(player)s with White against %(opponent)s: %(result)s")
    else:
        label = _("%(player)s with Black against %(opponent)s: %(result)s")
    words = {"player": player, "opponent": opponent, "result": RESULT_WORDS[result]}
    return {
        "url": reverse("game", args=[game.pk]),
        "mark": mark,
        "result": result,
        "label": label % words,
    }
