"""Computer opponents for the four games (pure Python, no Django).

``choose_move(position, side, level, rng=...)`` returns the move text a bot of
``level`` (1 weakest to 5 strongest) plays for ``side``; ``search`` returns the
same choice with its statistics (nodes, depth, seconds).

* Level 1: a random move, but a winning move is always taken and a move that loses
  at once is avoided (a one-ply look).
* Levels 2-5: alpha-beta search (``games.bots.negamax``) with the game's evaluation
  (``eval_<game>``): depth 1 with much noise (4 pawns) in 0.25 s, depth 2 with
  some noise (a pawn) in 0.5 s, depth 3 without noise in 1 s, and iterative
  deepening within 5 s.  The first iteration (depth 1) always gets at least 0.25 s,
  so that even a tiny budget compares every move.
* Shuuro's recruitment and deployment follow rules of thumb (``shuuro_setup``).

Chance steps (dice) are never the bot's: the site rolls them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from games.rules.base import Position, opponent

from .eval_carge import CargeEvaluator
from .eval_carolo import CaroloEvaluator
from .eval_rococo import RococoEvaluator
from .eval_shuuro import ShuuroEvaluator
from .negamax import Evaluator, Limits, Searcher, SearchResult
from .shuuro_setup import deploy_move, recruit_move

LEVELS: dict[int, Limits] = {
    2: Limits(depth=1, seconds=0.25, noise=400, quiescence=1),
    3: Limits(depth=2, seconds=0.5, noise=100, quiescence=2),
    4: Limits(depth=3, seconds=1.0, quiescence=3),
    5: Limits(depth=30, seconds=5.0, quiescence=4),
}
EVALUATORS: dict[str, Evaluator] = {
    "carolo": CaroloEvaluator(),
    "carge": CargeEvaluator(),
    "rococo": RococoEvaluator(),
    "shuuro": ShuuroEvaluator(),
    "shuuro-mini": ShuuroEvaluator(),
}


def limits_for(level: int, time_limit: float | None = None) -> Limits:
    """The search limits of ``level`` (2-5), with ``time_limit`` seconds if given."""
    limits = LEVELS[level]
    if time_limit is None:
        return limits
    return Limits(limits.depth, time_limit, limits.noise, limits.quiescence)


def search(
    position: Position,
    side: str,
    level: int,
    *,
    rng: random.Random,
    time_limit: float | None = None,
    history: Sequence[Position] = (),
    clock: Callable[[], float] = time.perf_counter,
) -> SearchResult:
    """The move a bot of ``level`` plays for ``side``, with the search's statistics.

    ``history`` (the game's positions, start first, ending with ``position``) lets
    the search see repetitions; without it they are seen only within the search.
    ``clock`` measures the time budget (the arena passes ``time.process_time`` so
    that a loaded machine does not weaken the bots).
    """
    if level not in (1, *LEVELS):
        raise ValueError(f"level must be 1 to 5, not {level}")
    if side not in position.to_act:
        raise ValueError(f"{side} cannot act in this position")
    start = time.perf_counter()
    phase = position.phase
    if position.key.startswith("shuuro") and phase in ("recruitment", "deployment"):
        if phase == "recruitment":
            text = recruit_move(position, side, rng)  # type: ignore[arg-type]
        else:
            text = deploy_move(position, rng, jitter=40 if level == 1 else 4)  # type: ignore[arg-type]
        move = position.parse_move(text, side)
        return SearchResult(move, text, 0, 0, 0, time.perf_counter() - start)
    if level == 1:
        return _one_ply(position, side, rng, start)
    limits = limits_for(level, time_limit)
    searcher = Searcher(EVALUATORS[position.key], limits, rng, history, clock)
    return searcher.run(position)


def choose_move(
    position: Position,
    side: str,
    level: int,
    *,
    rng: random.Random,
    time_limit: float | None = None,
    history: Sequence[Position] = (),
) -> str:
    """The move text a bot of ``level`` (1-5) plays for ``side`` in ``position``."""
    return search(position, side, level, rng=rng, time_limit=time_limit, history=history).text


def _one_ply(position: Position, side: str, rng: random.Random, start: float) -> SearchResult:
    """A winning move if there is one, else a random move that does not lose at once."""
    moves = position.legal_moves(side)
    safe = []
    for move in moves:
        found = position.play(move).outcome()
        if found is not None and found.winner == side:
            return SearchResult(
                move, position.move_text(move), 1, 1, len(moves), time.perf_counter() - start
            )
        if found is None or found.winner != opponent(side):
            safe.append(move)
    move = rng.choice(safe or moves)
    return SearchResult(
        move, position.move_text(move), 0, 1, len(moves), time.perf_counter() - start
    )
