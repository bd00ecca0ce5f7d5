"""The material each side is ahead by, as the game page shows it beside each player.

For each kind of piece, a side is ahead by the pieces it has beyond the other side's
count of that kind, on the board and in hand alike (pieces in hand belong to the
army: Carge's placement, Shuuro's deployment).  Barriers, plinths and Rococo's edge
are not in ``Board.pieces``, so they never count.  None of these games has official
piece values: kinds come in the order of the game's legend, the main piece first.
"""

from __future__ import annotations

from collections import Counter

from games.render import PIECE_NAMES
from games.rules import BLACK, WHITE, Board

# A piece that is several pieces of another kind: a Carge stack is two pawns, and
# stacking takes nothing, so a side with a stack more is not ahead by anything.
UNITS = {"carge": {"S": ("P", "P")}}


def army(game_key: str, board: Board, side: str) -> Counter[str]:
    """How many pieces of each kind (upper-case letter) ``side`` has, board and hand."""
    units = UNITS.get(game_key, {})
    counts: Counter[str] = Counter()
    held = [(letter, 1) for letter in board.pieces.values() if letter.isupper() == (side == WHITE)]
    held += list(board.hands.get(side, {}).items())
    for letter, count in held:
        for unit in units.get(letter.upper(), (letter.upper(),)):
            counts[unit] += count
    return counts


def ahead(game_key: str, board: Board) -> dict[str, list[tuple[str, int]]]:
    """Side -> the (FEN letter, count) it is ahead by, in legend order: ``[("P", 2)]``
    for White two pawns up, ``[("n", 1)]`` for Black a knight up; [] if not ahead."""
    armies = {side: army(game_key, board, side) for side in (WHITE, BLACK)}
    found = {}
    for side, other in ((WHITE, BLACK), (BLACK, WHITE)):
        mine, theirs = armies[side], armies[other]
        found[side] = [
            (letter if side == WHITE else letter.lower(), mine[letter] - theirs[letter])
            for letter in PIECE_NAMES[game_key]
            if mine[letter] > theirs[letter]
        ]
    return found
