"""The games of the players a player follows, to watch them (``/following/``): those
in progress, the latest move first, 50 a page, and those that ended in the last
seven days, the latest first.

Each list is one query whatever the number of players followed (their ids a
subquery, bounded by ``accounts.follows.MAX_FOLLOWS``), and a game two of them
play is listed once.  As on the games page, only what a spectator sees: the
number of moves leaves out the secret ones.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import Follow
from games.endings import result_words
from games.models import Game
from games.profiles import LATEST_FIRST, MOVED_FIRST
from games.queries import game_url

PER_PAGE = 50
RECENT = timedelta(days=7)
FINISHED_SHOWN = 50


def _of_followed(user) -> Q:
    ids = Follow.objects.filter(follower=user).values("followed_id")
    return Q(white__in=ids) | Q(black__in=ids)


def _games(user) -> QuerySet:
    # the positions are not shown: no need to fetch them
    return (
        Game.objects.filter(_of_followed(user))
        .select_related("white", "black")
        .defer("start_fen", "fen", "options")
    )


def _shown(games) -> list[Game]:
    games = list(games)
    for game in games:
        game.url = game_url(game.pk)
        game.shown_ply = game.visible_ply(None)
        if not game.is_active:
            game.result = result_words(game)
    return games


def in_progress(user, page_number) -> Page:
    """One page of the games in progress of the players ``user`` follows (a bad page
    number gives the first or the last page).  Two queries: the count and the page."""
    games = _games(user).filter(status=Game.Status.ACTIVE).order_by(*MOVED_FIRST)
    page = Paginator(games, PER_PAGE).get_page(page_number)
    page.object_list = _shown(page.object_list)
    return page


def just_finished(user, *, now: datetime | None = None) -> list[Game]:
    """The games of the players ``user`` follows that ended in the last ``RECENT``,
    the latest first, at most ``FINISHED_SHOWN``.  One query."""
    since = (now or timezone.now()) - RECENT
    games = _games(user).exclude(status=Game.Status.ACTIVE).filter(ended_at__gte=since)
    return _shown(games.order_by(*LATEST_FIRST)[:FINISHED_SHOWN])
