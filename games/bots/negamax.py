"""Iterative-deepening alpha-beta (negamax) over any engine's ``Position``.

The search only needs the engine interface (``legal_moves``, ``play``, ``outcome``)
plus a small per-game ``Evaluator`` (one per game, in ``eval_<game>``): a static evaluation,
a cheap terminal test for leaves (``outcome()`` often lists every legal move), a
capture test for move ordering and quiescence, and a position key for the
transposition table and repetitions.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.rules.base import WHITE, Outcome, Position

WIN = 1_000_000  # a won position; a win in n plies scores WIN - n
MAX_PLY = 64
FIRST_ITERATION = 0.25  # seconds the first iteration (depth 1) may take on a smaller budget


class Evaluator(Protocol):
    """What the search needs to know about one game."""

    quiescence: bool  # whether leaves are worth a look at the captures

    def evaluate(self, position: Position) -> int:
        """Static score from White's point of view (about 100 per pawn)."""

    def mover(self, position: Position) -> str | None:
        """The side to move, read cheaply (no move generation); None if not one side."""

    def quick_outcome(self, position: Position) -> Outcome | None:
        """Endings cheap to see at a leaf; the search sees the rest when it expands."""

    def is_capture(self, position: Position, move: Any) -> bool: ...

    def key(self, position: Position) -> Hashable:
        """Equal for positions that transpose and that the repetition rule equates."""


class _Timeout(Exception):
    pass


@dataclass(frozen=True)
class SearchResult:
    """The chosen move and how the search got there."""

    move: Any
    text: str
    score: int  # from the mover's point of view
    depth: int  # the deepest completed iteration
    nodes: int
    seconds: float

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class Limits:
    """How hard a search tries: ``depth`` plies at most, ``seconds`` of wall time,
    ``noise`` added to root scores (weaker play), ``quiescence`` plies of captures."""

    depth: int
    seconds: float
    noise: int = 0
    quiescence: int = 0


_EXACT, _LOWER, _UPPER = 0, 1, 2


class Searcher:
    """One search: counts nodes and keeps its tables for the iterations."""

    def __init__(
        self,
        evaluator: Evaluator,
        limits: Limits,
        rng: random.Random,
        history: Sequence[Position] = (),
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.ev = evaluator
        self.limits = limits
        self.rng = rng
        self.clock = clock
        self.nodes = 0
        self.partial: tuple[Any, int] | None = None  # best so far in the iteration under way
        self.deadline = 0.0
        self.table: dict[Hashable, tuple[int, int, int, Any]] = {}
        self.killers: list[list[Any]] = [[] for _ in range(MAX_PLY + 8)]
        self.history_score: dict[Any, int] = {}
        self.seen: dict[Hashable, int] = {}  # key -> occurrences in the game and the path
        for p in history[:-1] if history else ():
            k = evaluator.key(p)
            self.seen[k] = self.seen.get(k, 0) + 1

    # -- the public entry -----------------------------------------------------------
    def run(self, position: Position) -> SearchResult:
        start = self.clock()
        self.deadline = start + self.limits.seconds
        moves = position.legal_moves()
        if not moves:
            raise ValueError("no legal move to choose from")
        root_key = self.ev.key(position)
        self.seen[root_key] = self.seen.get(root_key, 0) + 1
        best_move, best_score, depth_done = moves[0], 0, 0
        if len(moves) == 1 and not self.limits.noise:
            return self._result(position, moves[0], 0, 0, start)
        for depth in range(1, self.limits.depth + 1):
            # Depth 1 compares every move once, even on a tiny budget (a move picked
            # from half the list is hardly a choice); deeper iterations keep the budget.
            budget = self.limits.seconds
            self.deadline = start + (max(budget, FIRST_ITERATION) if depth == 1 else budget)
            self.partial = None
            try:
                move, score = self._root(position, moves, depth)
            except _Timeout:
                if self.partial is not None:  # the cut iteration's best move (or ours)
                    best_move, best_score = self.partial
                break
            best_move, best_score, depth_done = move, score, depth
            if abs(score) > WIN - MAX_PLY:  # a forced ending: no need to look further
                break
            moves.sort(key=lambda m: m != best_move)
            if self.clock() - start > self.limits.seconds * 0.5:
                break  # the next iteration would very likely not finish
        return self._result(position, best_move, best_score, depth_done, start)

    def _result(self, position: Position, move: Any, score: int, depth: int, start: float):
        seconds = self.clock() - start
        return SearchResult(move, position.move_text(move), score, depth, self.nodes, seconds)

    # -- the tree ---------------------------------------------------------------------
    def _root(self, position: Position, moves: list[Any], depth: int) -> tuple[Any, int]:
        noise = self.limits.noise
        alpha, beta = -WIN - 1, WIN + 1
        best_move, best = moves[0], -WIN - 1
        ordered = self._order(position, moves, 0, None)
        for i, move in enumerate(ordered):
            child = position.play(move)
            if noise:  # every root move needs its true score, to add the noise to
                score = -self._negamax(child, depth - 1, -beta, WIN + 1, 1)
            elif i:
                score = -self._negamax(child, depth - 1, -alpha - 1, -alpha, 1)
                if score > alpha:
                    score = -self._negamax(child, depth - 1, -beta, -alpha, 1)
            else:
                score = -self._negamax(child, depth - 1, -beta, -alpha, 1)
            if noise and abs(score) < WIN - MAX_PLY:
                score += self.rng.randint(-noise, noise)
            if score > best:
                best, best_move = score, move
                alpha = max(alpha, score)
                self.partial = (best_move, best)
        return best_move, best

    def _tick(self) -> None:
        self.nodes += 1
        if not self.nodes & 63 and self.clock() > self.deadline:
            raise _Timeout

    def _terminal(self, outcome: Outcome, mover: str | None, ply: int) -> int:
        if outcome.winner is None:
            return 0
        return WIN - ply if outcome.winner == mover else -(WIN - ply)

    def _negamax(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._tick()
        ev = self.ev
        mover = ev.mover(pos)
        if mover is None:  # a chance or simultaneous step: the search stops here
            return 0
        ended = ev.quick_outcome(pos)
        if ended is not None:
            return self._terminal(ended, mover, ply)
        key = ev.key(pos)
        if self.seen.get(key, 0):
            # A repetition: scored as the threefold repetition it can become, so
            # the side that is better off looks for something else.
            return self._terminal(pos.repetition_outcome(), mover, ply)
        if depth <= 0 or ply >= MAX_PLY:
            left = self.limits.quiescence if ev.quiescence else 0
            return self._quiesce(pos, mover, alpha, beta, ply, left)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            e_depth, e_flag, e_score, hint = entry
            if e_depth >= depth:
                if e_flag == _EXACT:
                    return e_score
                if e_flag == _LOWER and e_score >= beta:
                    return e_score
                if e_flag == _UPPER and e_score <= alpha:
                    return e_score
        moves = pos.legal_moves()
        if not moves:
            found = pos.outcome()
            return 0 if found is None else self._terminal(found, mover, ply)
        alpha0 = alpha
        best, best_move = -WIN - 1, moves[0]
        self.seen[key] = self.seen.get(key, 0) + 1
        try:
            for i, move in enumerate(self._order(pos, moves, ply, hint)):
                child = pos.play(move)
                if i:  # principal variation search: prove the move worse with a null window
                    score = -self._negamax(child, depth - 1, -alpha - 1, -alpha, ply + 1)
                    if alpha < score < beta:
                        score = -self._negamax(child, depth - 1, -beta, -alpha, ply + 1)
                else:
                    score = -self._negamax(child, depth - 1, -beta, -alpha, ply + 1)
                if score > best:
                    best, best_move = score, move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if not ev.is_capture(pos, move):
                                self._remember_cutoff(move, ply, depth)
                            break
        finally:
            self.seen[key] -= 1
        flag = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT
        self.table[key] = (depth, flag, best, best_move)
        return best

    def _quiesce(
        self, pos: Position, mover: str, alpha: int, beta: int, ply: int, left: int
    ) -> int:
        stand = self.ev.evaluate(pos)
        if mover != WHITE:
            stand = -stand
        if left <= 0 or stand >= beta:
            return stand
        alpha = max(alpha, stand)
        captures = [m for m in pos.legal_moves() if self.ev.is_capture(pos, m)]
        if not captures:
            found = pos.outcome()  # cheap now: the moves are listed
            if found is not None:
                return self._terminal(found, mover, ply)
        best = stand
        for move in captures:
            child = pos.play(move)
            self._tick()
            ended = self.ev.quick_outcome(child)
            if ended is not None:
                score = -self._terminal(ended, self.ev.mover(child), ply + 1)
            else:
                child_mover = self.ev.mover(child)
                if child_mover is None:
                    score = 0
                else:
                    score = -self._quiesce(child, child_mover, -beta, -alpha, ply + 1, left - 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    # -- move ordering ----------------------------------------------------------------
    def _remember_cutoff(self, move: Any, ply: int, depth: int) -> None:
        killers = self.killers[ply]
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        self.history_score[move] = self.history_score.get(move, 0) + depth * depth

    def _order(self, pos: Position, moves: list[Any], ply: int, hint: Any) -> list[Any]:
        """The table's move, captures, killer moves, then quiet moves by history."""
        is_capture = self.ev.is_capture
        first, captures, quiet = [], [], []
        for move in moves:
            if move == hint:
                first.append(move)
            elif is_capture(pos, move):
                captures.append(move)
            else:
                quiet.append(move)
        killers = [m for m in self.killers[ply] if m in quiet]
        if killers:
            quiet = [m for m in quiet if m not in killers]
        if self.history_score:
            get = self.history_score.get
            quiet.sort(key=lambda m: -get(m, 0))
        return first + captures + killers + quiet
