"""Read-side helpers for the lobby, the home page and the header.

Each function is one query (players joined with ``select_related``), so a page
costs the same number of queries whatever the number of rows.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from accounts import blocks
from games import rules
from games.models import Challenge, Game

FINISHED_SHOWN = 20


def game_url(game_id: int) -> str:
    return reverse("game", args=[game_id])


def _to_move(user) -> Q:
    return Q(white=user, white_to_act=True) | Q(black=user, black_to_act=True)


def _active_of(user):
    return Game.objects.filter(Q(white=user) | Q(black=user), status=Game.Status.ACTIVE)


def _as_seen_by(games, user) -> list[Game]:
    """Games with ``viewer_side``, ``opponent`` and ``url`` set for ``user``."""
    games = list(games)
    for game in games:
        game.viewer_side = rules.WHITE if game.white_id == user.pk else rules.BLACK
        game.opponent = game.black if game.viewer_side == rules.WHITE else game.white
        game.url = game_url(game.pk)
    return games


def turn_count(user) -> int:
    return awaiting(user).count()


def awaiting(user):
    """Active games where ``user`` is to act, the soonest deadline first."""
    games = _active_of(user).filter(_to_move(user))
    return games.order_by(F("deadline").asc(nulls_last=True), "pk")


def games_awaiting_move(user) -> list[Game]:
    """Active games where ``user`` is to act, the soonest deadline first."""
    return _as_seen_by(awaiting(user).select_related("white", "black"), user)


def next_awaiting(user, game_id: int) -> dict | None:
    """The game other than ``game_id`` where ``user`` is to act with the least time
    left (``pk`` and ``variant``), or None: one small query."""
    return awaiting(user).exclude(pk=game_id).values("pk", "variant").first()


def games_awaiting_opponent(user) -> list[Game]:
    """Active games where only the opponent is to act, the soonest deadline first."""
    games = (
        _active_of(user)
        .exclude(_to_move(user))
        .select_related("white", "black")
        .order_by(F("deadline").asc(nulls_last=True), "pk")
    )
    return _as_seen_by(games, user)


RESULT_WORDS = {
    "won": _("Won"),
    "lost": _("Lost"),
    "draw": _("Draw"),
    "aborted": _("Aborted"),
}


def finished_games(user, limit: int = FINISHED_SHOWN) -> list[Game]:
    """The last ``limit`` ended games of ``user``, the latest first, with ``result``."""
    games = _as_seen_by(
        Game.objects.filter(Q(white=user) | Q(black=user))
        .exclude(status=Game.Status.ACTIVE)
        .select_related("white", "black")
        .order_by(F("ended_at").desc(nulls_last=True), "-pk")[:limit],
        user,
    )
    for game in games:
        mark_result(game)
    return games


def mark_result(game: Game) -> None:
    """Set ``result`` (won, lost, draw or aborted, from ``viewer_side``) and its words."""
    if game.status == Game.Status.ABORTED:
        key = "aborted"
    elif not game.winner:
        key = "draw"
    else:
        key = "won" if game.winner == game.viewer_side else "lost"
    game.result = key
    game.result_words = RESULT_WORDS[key]


def challenges_to(user) -> list[Challenge]:
    """Open challenges addressed to ``user``, the newest first."""
    return list(
        Challenge.still_open()
        .filter(opponent=user)
        .select_related("challenger")
        .order_by("-created_at", "-pk")
    )


def challenges_by(user) -> list[Challenge]:
    """Open challenges ``user`` made, the newest first."""
    return list(
        Challenge.objects.filter(challenger=user, status=Challenge.Status.OPEN)
        .select_related("opponent")
        .order_by("-created_at", "-pk")
    )


def open_challenges(variant: str | None = None, *, viewer=None, now: datetime | None = None):
    """Open challenges anyone may accept, made in the last 30 days, newest first;
    none of a player ``viewer`` has blocked or was blocked by (accounts.blocks)."""
    found = Challenge.still_open(now).filter(opponent__isnull=True)
    if viewer is not None and viewer.is_authenticated:
        found = found.exclude(blocks.apart_from(viewer, "challenger"))
    if variant:
        found = found.filter(variant=variant)
    return list(found.select_related("challenger").order_by("-created_at", "-pk"))
