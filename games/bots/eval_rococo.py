"""Rococo: what a position is worth to White.

Material by piece values, frozen pieces (next to an enemy immobilizer) counted at
a fraction of their worth, pieces on the edge ring (where they can hardly move)
and off-centre pieces penalised, friends around the king as shelter and enemies
around it as danger.  Reads the position's piece codes (``squares``) directly, for speed.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from games.rules import rococo as r
from games.rules import rococo_board as rb
from games.rules.base import BLACK, WHITE, Outcome

VALUES = {
    rb.PAWN: 100,
    rb.SWAPPER: 350,
    rb.LEAPER: 450,
    rb.CHAMELEON: 400,
    rb.PUSHME: 500,
    rb.IMMOBILIZER: 550,
    rb.KING: 0,
}
FROZEN = 0.5  # share of a frozen piece's value lost
EDGE = 25
CENTRE = 4
SHELTER = 12
DANGER = 20

_CENTRE_DISTANCE = [0] * 144
for _sq in rb.SQUARES:
    _f, _r = rb.file_of(_sq), rb.rank_of(_sq)
    _CENTRE_DISTANCE[_sq] = int(abs(2 * _f - 9) + abs(2 * _r - 9)) // 2


class RococoEvaluator:
    quiescence = True

    def evaluate(self, position: r.RococoPosition) -> int:
        b = position.squares
        score = 0
        immobilizers = {0: [], 1: []}
        for sq in rb.SQUARES:
            v = b[sq]
            if v and v & 7 == rb.IMMOBILIZER:
                immobilizers[1 if v & rb.BLACK_BIT else 0].append(sq)
        frozen = {0: set(), 1: set()}  # squares where a side's pieces are frozen
        for colour in (0, 1):
            for sq in immobilizers[1 - colour]:
                frozen[colour].update(rb.NEIGHBOURS[sq])
        for sq in rb.SQUARES:
            v = b[sq]
            if not v:
                continue
            colour = 1 if v & rb.BLACK_BIT else 0
            kind = v & 7
            value = VALUES[kind]
            if sq in frozen[colour]:
                value = int(value * (1 - FROZEN)) if kind != rb.KING else -150
            if rb.EDGE[sq]:
                value -= EDGE
            if kind != rb.KING:
                value -= CENTRE * _CENTRE_DISTANCE[sq]
            score += -value if colour else value
        for colour, king in enumerate(position.kings):
            if not king:
                score += 50_000 if colour else -50_000
                continue
            own_bit = rb.BLACK_BIT if colour else 0
            safety = 0
            for n in rb.NEIGHBOURS[king]:
                v = b[n]
                if v and v != rb.OFF:
                    safety += SHELTER if (v & rb.BLACK_BIT) == own_bit else -DANGER
            score += -safety if colour else safety
        return score

    def mover(self, position: r.RococoPosition) -> str | None:
        return BLACK if position.turn else WHITE

    def quick_outcome(self, position: r.RococoPosition) -> Outcome | None:
        if position.in_check():
            return position.outcome()
        return None

    def is_capture(self, position: r.RococoPosition, move: Any) -> bool:
        return bool(move.captured)

    def key(self, position: r.RococoPosition) -> Hashable:
        return (position.squares, position.turn, position.swap)
