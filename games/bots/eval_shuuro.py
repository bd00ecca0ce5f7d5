"""Shuuro and Mini-Shuuro: what a fight position is worth to White.

Chess values, centralised minor pieces (a knight on a plinth can only be taken by
a knight), advanced pawns, rooks and queens on files free of own pawns, and a king
kept home behind a pawn shelter while the board is full.  Recruitment and
deployment are not searched: see ``shuuro_setup``.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache
from typing import Any

from games.rules import shuuro as s
from games.rules.base import BLACK, WHITE, Outcome
from games.rules.shuuro_core import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, attacks, layout

VALUES = {PAWN: 100, KNIGHT: 300, BISHOP: 320, ROOK: 480, QUEEN: 900, KING: 0}
CENTRE = 5
PAWN_ADVANCE = 8
OPEN_FILE = 15
PLINTH_KNIGHT = 25
SHELTER = 18
KING_AWAY = 20
MOP_UP_LEAD = 400  # material lead from which the weaker king is hunted


@cache
def _tables(w: int, h: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]]:
    """Per square: the distance from the centre, and the rank counted from each side."""
    centre = tuple(
        int(abs(2 * (s % w) - w + 1) + abs(2 * (s // w) - h + 1)) // 2 for s in range(w * h)
    )
    rel = (tuple(s // w for s in range(w * h)), tuple(h - 1 - s // w for s in range(w * h)))
    return centre, rel


def _mop_up(material: list[int], kings: list[int], w: int, centre: tuple[int, ...]) -> int:
    """Well ahead: drive the enemy king to the edge and bring ours near (to mate)."""
    lead = material[0] - material[1]
    if abs(lead) < MOP_UP_LEAD or min(kings) < 0:
        return 0
    strong = 0 if lead > 0 else 1
    weak_king, strong_king = kings[1 - strong], kings[strong]
    near = abs(weak_king % w - strong_king % w) + abs(weak_king // w - strong_king // w)
    bonus = 10 * centre[weak_king] - 4 * near
    return bonus if strong == 0 else -bonus


class ShuuroEvaluator:
    quiescence = True

    def evaluate(self, position: s.ShuuroPosition) -> int:
        st = position.state
        board, plinth = st.board, st.plinth
        w, h = position.width, position.height
        centre, rel = _tables(w, h)
        pieces = [(sq, p) for sq, p in enumerate(board) if p]
        pawn_files: tuple[set[int], set[int]] = (set(), set())
        kings = [-1, -1]
        material = [0, 0]
        for sq, p in pieces:
            if p == PAWN:
                pawn_files[0].add(sq % w)
            elif p == -PAWN:
                pawn_files[1].add(sq % w)
            if p == KING:
                kings[0] = sq
            elif p == -KING:
                kings[1] = sq
            else:
                material[0 if p > 0 else 1] += VALUES[abs(p)]
        score = 0
        for sq, p in pieces:
            colour = 0 if p > 0 else 1
            kind = p if p > 0 else -p
            value = VALUES[kind]
            if kind == KNIGHT or kind == BISHOP:
                value -= CENTRE * centre[sq]
                if plinth[sq]:
                    value += PLINTH_KNIGHT
            elif kind == PAWN:
                value += PAWN_ADVANCE * rel[colour][sq]
            elif kind == ROOK or kind == QUEEN:
                if sq % w not in pawn_files[colour]:
                    value += OPEN_FILE
            elif material[1 - colour] > 1500:  # the king in the middle game: home, sheltered
                value -= KING_AWAY * rel[colour][sq]
                front = sq + (w if colour == 0 else -w)
                pawn = PAWN if colour == 0 else -PAWN
                for t in (front - 1, front, front + 1):
                    if 0 <= t < len(board) and abs(t % w - sq % w) <= 1 and board[t] == pawn:
                        value += SHELTER
            else:  # the king in the ending: to the centre
                value -= CENTRE * centre[sq]
            score += value if colour == 0 else -value
        return score + _mop_up(material, kings, w, centre)

    def mover(self, position: s.ShuuroPosition) -> str | None:
        st = position.state
        if st.pre_phase or st.roll:
            return None
        return WHITE if st.side > 0 else BLACK

    def quick_outcome(self, position: s.ShuuroPosition) -> Outcome | None:
        st = position.state
        if st.pre_phase or st.roll or any(st.hands[0]) or any(st.hands[1]):
            return None
        board = st.board
        king = KING * st.side
        if king not in board or sum(1 for p in board if p) <= 3:
            return position.outcome()
        in_check = attacks(board, layout(position.geo(), st.plinth), board.index(king), -st.side)
        if in_check or st.ply == 1 + len(board) - board.count(0):
            return position.outcome()  # in check (mate?) or the fight's first move (ambush?)
        return None

    def is_capture(self, position: s.ShuuroPosition, move: Any) -> bool:
        if move & (s.PLACE | s.RECRUIT | s.ROLL):
            return False
        return bool(position.state.board[(move >> 8) & 255]) or move >> 20 == s.EN_PASSANT

    def key(self, position: s.ShuuroPosition) -> Hashable:
        st = position.state
        return (st.board, st.side, st.ep, st.hands, st.roll)
