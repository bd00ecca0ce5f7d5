"""The games of the players a player follows, to watch them (``/following/``): those
in progress, the latest move first, 50 a page, and those that ended in the last
seven days, the latest first.

Each list is one query whatever the number of players followed (their ids a
subquery, bounded by ``accounts.follows.MAX_FOLLOWS``), and two at most for the
ratings shown; a game two of them play is listed once.  Each game is shown as on
the games page (``browse.shown_games``): only what a spectator sees.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts import follows
from games.browse import shown_games
from games.models import Game
from games.profiles import LATEST_FIRST, MOVED_FIRST

PER_PAGE = 50
RECENT = timedelta(days=7)
FINISHED_SHOWN = 50


def _of_followed(user) -> Q:
    ids = follows.followed_ids(user)
    return Q(white__in=ids) | Q(black__in=ids)


def _games(user) -> QuerySet:
    # the positions are not shown: no need to fetch them
    return (
        Game.objects.filter(_of_followed(user))
        .select_related("white", "black")
        .defer("start_fen", "fen", "options")
    )


def in_progress(user, page_number) -> Page:
    """One page of the games in progress of the players ``user`` follows (a bad page
    number gives the first or the last page).  The count, the page, and at most two
    for the ratings."""
    games = _games(user).filter(status=Game.Status.ACTIVE).order_by(*MOVED_FIRST)
    page = Paginator(games, PER_PAGE).get_page(page_number)
    page.object_list = shown_games(page.object_list)
    return page


def just_finished(user, *, now: datetime | None = None) -> list[Game]:
    """The games of the players ``user`` follows that ended in the last ``RECENT``,
    the latest first, at most ``FINISHED_SHOWN``.  One query, and at most two for the
    ratings."""
    since = (now or timezone.now()) - RECENT
    games = _games(user).exclude(status=Game.Status.ACTIVE).filter(ended_at__gte=since)
    return shown_games(games.order_by(*LATEST_FIRST)[:FINISHED_SHOWN])
