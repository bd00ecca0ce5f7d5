"""A player's ended games as one text file: each game's record as the viewer may see it.

The records are ``presenters.record_text``'s, so the file shows no more than each
game's own record would (nothing of a secret Shuuro army, say). The games are those
of the profile's finished games list with the same filters, the latest first.

Built in bounded memory: one query for the ids (at most ``EXPORT_LIMIT`` + 1), then
two per ``CHUNK`` games: the games with their players, and their moves.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.utils.translation import gettext as _

from games.models import Game
from games.presenters import game_moves, record_text
from games.profiles import LATEST_FIRST, GameFilter, ended_games, named_player

EXPORT_LIMIT = 1000
CHUNK = 100


def exported_ids(player, filters: GameFilter) -> list[int]:
    """The ids of the player's ended games ``filters`` select, the latest first, as
    the profile lists them; at most ``EXPORT_LIMIT`` + 1, to tell whether more match.
    No ids if the opponent named is no one (the profile then lists none)."""
    opponent = None
    if filters.opponent:
        opponent = named_player(filters.opponent)
        if opponent is None:
            return []
    games = ended_games(player, filters, opponent).order_by(*LATEST_FIRST)
    return list(games.values_list("pk", flat=True)[: EXPORT_LIMIT + 1])


def export_text(player, filters: GameFilter, viewer) -> Iterator[str]:
    """The file's parts: the records, one blank line between two, and a last line if
    more games matched than the file holds.

    The ids and the last line are found now, in the request's language; the records
    as the response is sent."""
    ids = exported_ids(player, filters)
    more = ""
    if len(ids) > EXPORT_LIMIT:
        ids = ids[:EXPORT_LIMIT]
        more = "\n# " + _(
            "Only the latest %(count)s games are in this file: more match these filters."
        ) % {"count": EXPORT_LIMIT}
        more += "\n"
    return _records(ids, viewer, more)


def _records(ids: list[int], viewer, more: str) -> Iterator[str]:
    separator = ""
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        games = Game.objects.select_related("white", "black").in_bulk(chunk)
        moves = game_moves(chunk)
        for pk in chunk:
            game = games.get(pk)
            if game is None:  # deleted since the ids were read
                continue
            yield separator + record_text(game, game.side_of(viewer), moves.get(pk, []))
            separator = "\n"
    if more:
        yield more
