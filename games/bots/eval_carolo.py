"""Le Carolo: what a position is worth to White.

The game is won by mat (a Carolo next to the enemy Ego) or by reconquest (the Ego
on the enemy back rank), so the terms are: each Carolo's reach to the squares next
to the enemy Ego (a mat threat, decisive for the side to move), the Ego's advance
and the free path ahead of it, the enemy Carolo's distance from our Ego, attraction
lines, and material by the capture cycle (Ego > Bayard > Aymon, Hubris > Bayard,
Carolo > Hubris).  Reads the position's piece codes (``squares``) directly, for speed.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from games.rules import carolo as c
from games.rules.base import BLACK, WHITE, Outcome

# The Aymon is the Carolo's bounce point and the Bayard's prey; the Hubris is the
# Carolo's prey and the Ego's attractor; the Bayard is everyone's prey.
VALUES = {c.BAYARD: 220, c.HUBRIS: 330, c.AYMON: 160}
EGO_RANK = (0, 15, 35, 65, 110, 180, 300, 0)  # by ranks advanced (7: reconquest, decided)
MAT_THREAT = 900  # a Carolo that can reach a square next to the enemy Ego
TEMPO_WIN = 50_000  # the side to move has a winning move on the board


def _distance(a: int, b: int) -> int:
    return abs(a % 8 - b % 8) + abs(a // 8 - b // 8)


def _ego_path(b: tuple[int, ...], ego: int, side: int, enemy_carolo: int) -> int:
    """Squares straight ahead of the Ego that are free to step on (up to the goal)."""
    step = -8 if side else 8
    free = 0
    sq = ego + step
    banned = c.ADJACENT[enemy_carolo]
    while 0 <= sq < 64 and not b[sq] and sq not in banned:
        free += 1
        sq += step
    return free


def _side_score(b: tuple[int, ...], lb: list[int], side: int, to_move: bool) -> int:
    enemy = side ^ c.BLACK_BIT
    ego, carolo = b.index(c.EGO | side), b.index(c.CAROLO | side)
    enemy_ego, enemy_carolo = b.index(c.EGO | enemy), b.index(c.CAROLO | enemy)
    score = 0
    for kind, value in VALUES.items():
        score += value * b.count(kind | side)
    advanced = 7 - ego // 8 if side else ego // 8
    score += EGO_RANK[advanced] * 2
    score += 12 * _ego_path(b, ego, side, enemy_carolo)
    # A winning move on the board is as good as played, unless an attraction
    # restricts this turn to the Ego's slide or a Hubris interposing.
    free_hand = to_move and c.attraction_line(lb, ego, side) is None
    # The Carolo's reach: squares next to the enemy Ego are mat.
    reach = c.carolo_targets(lb, carolo, side)
    targets = c.ADJACENT[enemy_ego]
    hits = len(reach & targets)
    if hits:
        score += TEMPO_WIN if free_hand else MAT_THREAT + 150 * (hits - 1)
    score += 2 * len(reach)
    score -= 6 * _distance(carolo, enemy_ego)
    # Our Ego one step from the goal with the step free: reconquest next move.
    if advanced == 6:
        goal = ego + (-8 if side else 8)
        if not b[goal] and goal not in c.ADJACENT[enemy_carolo]:
            score += TEMPO_WIN if free_hand else MAT_THREAT
    # Attraction: our Hubris on a free diagonal of the enemy Ego pulls it.
    if c.attraction_line(lb, enemy_ego, enemy) is not None:
        score += 60
    return score


class CaroloEvaluator:
    quiescence = False  # captures matter less than mat threats, seen by the evaluation

    def evaluate(self, position: c.CaroloPosition) -> int:
        b = position.squares
        lb = list(b)
        mover = position.turn
        white = _side_score(b, lb, 0, mover == 0)
        black = _side_score(b, lb, c.BLACK_BIT, mover == c.BLACK_BIT)
        return white - black

    def mover(self, position: c.CaroloPosition) -> str | None:
        return BLACK if position.turn else WHITE

    def quick_outcome(self, position: c.CaroloPosition) -> Outcome | None:
        if c.ended(position.squares):
            return position.outcome()
        return None

    def is_capture(self, position: c.CaroloPosition, move: Any) -> bool:
        return move.capture

    def key(self, position: c.CaroloPosition) -> Hashable:
        return (position.squares, position.turn, position.ney)
