"""The site's games, for anyone to find one to watch (``/games/``): those in progress,
the latest move first, or those that ended, the latest first; all games or one.

A page costs the same queries whatever its length: the count, the page with both
players, and at most two for the ratings shown (``ratings.shown_ratings_of``).
Nothing is shown that a spectator of the game could not see: the number of moves
leaves out the secret ones (Shuuro's purchases), and a secret move changes neither
the time of the last move nor the order (``services._play`` leaves
``last_move_at`` as it was).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from games import rules
from games.endings import result_words
from games.models import Game
from games.profiles import LATEST_FIRST, MOVED_FIRST
from games.queries import game_url
from games.ratings import shown_ratings_of
from games.render import SIDE_NAMES

PER_PAGE = 50


@dataclass(frozen=True)
class GamesFilter:
    """Which games to list: in progress or ended, of every game or one."""

    variant: str = ""
    finished: bool = False


def listed_games(filters: GamesFilter) -> QuerySet:
    """The games ``filters`` select, in the order listed, with both players.

    Ended games are finished or aborted ones, as on a profile."""
    if filters.finished:
        games = Game.objects.exclude(status=Game.Status.ACTIVE).order_by(*LATEST_FIRST)
    else:
        games = Game.objects.filter(status=Game.Status.ACTIVE).order_by(*MOVED_FIRST)
    if filters.variant:
        games = games.filter(variant=filters.variant)
    # the positions are not shown: no need to fetch them
    return games.select_related("white", "black").defer("start_fen", "fen", "options")


def games_page(filters: GamesFilter, page_number) -> Page:
    """One page of the games ``filters`` select (a bad page number gives the first
    or the last page), as ``shown_games`` gives them."""
    page = Paginator(listed_games(filters), PER_PAGE).get_page(page_number)
    page.object_list = shown_games(page.object_list)
    return page


def shown_games(games) -> list[Game]:
    """``games`` (with both players) as a list of games to watch shows them
    (``games/_game_list.html``): each with ``url``, ``shown_ply`` (the moves a
    spectator sees), ``sides`` (each player with the rating shown, rated games only)
    and ``turn`` (in progress) or ``result`` (ended), in words.  At most two queries,
    for the ratings."""
    games = list(games)
    ratings = shown_ratings_of([game for game in games if game.rated])
    for game in games:
        game.url = game_url(game.pk)
        game.shown_ply = game.visible_ply(None)
        to_act = game.to_act() if game.is_active else []
        shown = ratings.get(game.pk, {})
        game.sides = [
            {
                "side": side,
                "side_word": SIDE_NAMES[side],
                "user": game.player(side),
                "rating": shown.get(side, (None, None))[0],
                "change": shown.get(side, (None, None))[1],
                "to_act": side in to_act,
                "winner": game.winner == side,
            }
            for side in (rules.WHITE, rules.BLACK)
        ]
        if game.is_active:
            game.turn = _turn(game, to_act)
        else:
            game.result = result_words(game)
    return games


def _turn(game: Game, to_act: list[str]) -> str:
    """Whose turn it is, in the game page's words for a spectator."""
    if len(to_act) == 2:
        return _("Both players to act.")
    if to_act:
        return _("%(player)s (%(side)s) to move.") % {
            "player": game.player(to_act[0]),
            "side": SIDE_NAMES[to_act[0]],
        }
    return ""
