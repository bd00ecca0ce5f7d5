"""Le Carge: what a position is worth to White.

A player left with one pawn loses, so pawns (on the board, in stacks, in hand) are
almost everything.  Stacks cannot be captured, only swapped, so they are safe
material; a single pawn the side to move can take is as good as gone; mobility
counts moves behind the barriers (a pawn walled in is dead weight).

While the pawns are placed nothing can be taken yet, but whatever two enemy pawns
see of each other when the placement ends is decided by who moves first (White):
placement positions are scored by the exchange of captures White could start
(both sides taking and retaking, each free to stop), and by the pawns that could
stack (a stack is out of reach).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from games.rules import carge as g
from games.rules.base import BLACK, WHITE, Outcome

PAWN = 100
STACK_BONUS = 30  # a stack's two pawns are out of reach of captures
MOBILITY = 3
EXCHANGE = 80  # per pawn White wins by the captures it may start when phase 2 begins
EXCHANGE_PLIES = 3  # a capture, the recapture, and the next capture
PARTNER = 8  # per single pawn that sees a friendly single pawn (it may stack)
CONTACT = 50  # per enemy single pawn a White one sees when phase 2 begins (White moves first)


def _captures(board: list[int], rays: Any, s: int) -> list[tuple[int, int, int]]:
    """Captures of side ``s`` as (from, to, from after): a single pawn slides onto
    the first piece of a ray, a stack's top pawn steps onto a neighbour."""
    found = []
    for f in range(len(board)):
        v = board[f]
        if v == s:
            for ray in rays[f]:
                for t in ray:
                    if board[t]:
                        if board[t] == -s:
                            found.append((f, t, 0))
                        break
        elif v == 2 * s:
            for t in g.NEIGHBOURS[f]:
                if board[t] == -s:
                    found.append((f, t, s))
    return found


def _exchange(board: list[int], rays: Any, s: int, left: int, alpha: int, beta: int) -> int:
    """Pawns side ``s`` (to move) wins by captures alone, free to stop at any time."""
    if left <= 0 or beta <= 0:
        return 0
    best = 0
    alpha = max(alpha, 0)
    for f, t, f_after in _captures(board, rays, s):
        before_f = board[f]
        board[f], board[t] = f_after, s
        gain = 1 - _exchange(board, rays, -s, left - 1, 1 - beta, 1 - alpha)
        board[f], board[t] = before_f, -s
        if gain > best:
            best = gain
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    return best


def _sights(board: Any, rays: Any, s: int) -> tuple[int, int]:
    """Single pawns of side ``s`` that see a friendly single pawn (they may stack),
    and the enemy single pawns they see."""
    partners, enemies = 0, 0
    for f in range(len(board)):
        if board[f] != s:
            continue
        friend = False
        for ray in rays[f]:
            for t in ray:
                w = board[t]
                if w:
                    if w == s:
                        friend = True
                    elif w == -s:
                        enemies += 1
                    break
        partners += friend
    return partners, enemies


class CargeEvaluator:
    quiescence = False  # the exchange of captures is counted by ``_exchange`` instead

    def evaluate(self, position: g.CargePosition) -> int:
        board, side = position.squares, position.turn
        geo = g.geometry(position.mask)
        rays = geo.rays
        white, black = position.totals()
        score = PAWN * (white - black)
        score += STACK_BONUS * (board.count(2) - board.count(-2))
        score += MOBILITY * (
            g.count_moves(board, geo, 1, False) - g.count_moves(board, geo, -1, False)
        )
        white_partners, contacts = _sights(board, rays, 1)
        black_partners, _ = _sights(board, rays, -1)
        score += PARTNER * (white_partners - black_partners)
        # The captures the side to move can start (White, when phase 2 begins).
        first = side
        if position.hands != (0, 0):
            first = 1
            score += CONTACT * contacts
        won = _exchange(list(board), rays, first, EXCHANGE_PLIES, 0, 3)
        return score + first * EXCHANGE * won

    def mover(self, position: g.CargePosition) -> str | None:
        return WHITE if position.turn == 1 else BLACK

    def quick_outcome(self, position: g.CargePosition) -> Outcome | None:
        white, black = position.totals()
        if white <= 1 or black <= 1:
            return position.outcome()
        return None

    def is_capture(self, position: g.CargePosition, move: Any) -> bool:
        return move.kind == "capture"

    def key(self, position: g.CargePosition) -> Hashable:
        return position.state
