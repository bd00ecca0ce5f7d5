"""Le Carge: what a position is worth to White.

A player left with one pawn loses, so pawns (on the board, in stacks, in hand) are
almost everything.  Stacks cannot be captured, only swapped, so they are safe
material; a single pawn the side to move can take is as good as gone; mobility
counts moves behind the barriers (a pawn walled in is dead weight).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from games.rules import carge as g
from games.rules.base import BLACK, WHITE, Outcome

PAWN = 100
STACK_BONUS = 30  # a stack's two pawns are out of reach of captures
MOBILITY = 3
THREAT = 70  # the side to move takes a pawn (roughly: it may be defended)
HANGING = 25  # per further pawn of the side not to move that hangs


def _captured_squares(moves: list[tuple[int, int, int, int, bool]]) -> set[int]:
    return {t for _, t, _, _, capture in moves if capture}


class CargeEvaluator:
    quiescence = True

    def evaluate(self, position: g.CargePosition) -> int:
        board, side = position._board, position._side
        geo = g._geometry(position._mask)
        white_moves = g._ordinary_moves(board, geo.rays, 1)
        black_moves = g._ordinary_moves(board, geo.rays, -1)
        white = sum(v for v in board if v > 0) + position._hands[0]
        black = -sum(v for v in board if v < 0) + position._hands[1]
        score = PAWN * (white - black)
        score += STACK_BONUS * (board.count(2) - board.count(-2))
        score += MOBILITY * (len(white_moves) - len(black_moves))
        # Threats: squares of the other side's single pawns the mover can take.  While
        # pawns are placed, the threats that count are White's: White moves first.
        white_prey = len(_captured_squares(white_moves))
        black_prey = len(_captured_squares(black_moves))
        if side == 1 or position._hands != (0, 0):
            score += (THREAT if white_prey else 0) - HANGING * black_prey
        else:
            score -= (THREAT if black_prey else 0) - HANGING * white_prey
        return score

    def mover(self, position: g.CargePosition) -> str | None:
        return WHITE if position._side == 1 else BLACK

    def quick_outcome(self, position: g.CargePosition) -> Outcome | None:
        white, black = position._totals()
        if white <= 1 or black <= 1:
            return position.outcome()
        return None

    def is_capture(self, position: g.CargePosition, move: Any) -> bool:
        return move.kind == "capture"

    def key(self, position: g.CargePosition) -> Hashable:
        return position._state()
