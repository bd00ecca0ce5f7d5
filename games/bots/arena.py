"""Bot tournaments: ``python -m games.bots.arena <game> <level_a> <level_b|random>``.

Plays ``--games`` games between two players (levels 1-5, or ``random`` for a
uniformly random mover), colours alternating (A is White in even-numbered games),
dice rolled from the game's seeded random source, a draw when ``--max-plies`` is
reached.  Prints A's wins, draws and losses and A's score; ``--json`` writes them
with per-game details.  ``--time-scale`` multiplies every level's time budget
(0.1: level 5 thinks 0.5 s a move), counted in CPU time unless ``--wall-clock``.
Games run in ``--processes`` worker processes.

Example: ``nice -n 19 python -m games.bots.arena carolo 5 random --games 100
--time-scale 0.1 --processes 2 --json var/arena-carolo.json``
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from multiprocessing import Pool

from games import rules
from games.rules.base import CHANCE, WHITE, Position

from . import LEVELS, limits_for, search

RANDOM = "random"


@dataclass
class GameResult:
    index: int
    a_side: str  # the colour player A had
    winner: str | None  # "a", "b" or None (a draw)
    reason: str
    plies: int
    seconds: float
    nodes: dict[str, int] = field(default_factory=dict)  # player -> nodes searched
    search_seconds: dict[str, float] = field(default_factory=dict)


def _start(game: str, rng: random.Random) -> Position:
    cls = rules.get(game)
    if game == "carge":
        return cls.start(rng=rng)  # a random barrier layout from the game's seed
    return cls.start()


def play_game(
    game: str,
    players: tuple[str, str],
    index: int,
    seed: int,
    time_scale: float,
    max_plies: int,
    cpu_time: bool = True,
) -> GameResult:
    """One game; ``players`` are (A, B); A plays White when ``index`` is even."""
    clock = time.process_time if cpu_time else time.perf_counter
    rng = random.Random(seed * 100_003 + index)
    a_side = WHITE if index % 2 == 0 else "black"
    position = _start(game, rng)
    history = [position]
    seen = Counter([position.repetition_key()])
    nodes = {"a": 0, "b": 0}
    search_seconds = {"a": 0.0, "b": 0.0}
    started = time.perf_counter()
    ending = None
    while len(history) <= max_plies:
        ending = position.outcome()
        key = position.repetition_key()
        if ending is None and key is not None and seen[key] >= 3:
            ending = position.repetition_outcome()
        if ending is None:
            ending = type(position).history_outcome(history[-102:])
        acts = position.to_act
        if ending is not None or not acts:
            break
        if acts == (CHANCE,):
            move = rng.choice(position.legal_moves())
        else:
            side = acts[0]
            who = "a" if side == a_side else "b"
            level = players[0] if who == "a" else players[1]
            if level == RANDOM:
                move = rng.choice(position.legal_moves(side))
            else:
                lv = int(level)
                limit = limits_for(lv).seconds * time_scale if lv in LEVELS else None
                found = search(
                    position, side, lv, rng=rng, time_limit=limit, history=history, clock=clock
                )
                move = found.move
                nodes[who] += found.nodes
                search_seconds[who] += found.seconds
        position = position.play(move)
        history.append(position)
        key = position.repetition_key()
        if key is not None:
            seen[key] += 1
    plies = len(history) - 1
    if ending is None:
        winner, reason = None, "move-cap"
    else:
        reason = ending.reason
        winner = None if ending.winner is None else ("a" if ending.winner == a_side else "b")
    return GameResult(
        index,
        a_side,
        winner,
        reason,
        plies,
        time.perf_counter() - started,
        nodes,
        search_seconds,
    )


def _play(args: tuple) -> GameResult:
    return play_game(*args)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.bots.arena", description=__doc__)
    parser.add_argument("game", choices=rules.GAME_KEYS)
    parser.add_argument("a", help="player A: a level 1-5 or 'random'")
    parser.add_argument("b", help="player B: a level 1-5 or 'random'")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-scale", type=float, default=1.0)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument(
        "--wall-clock",
        dest="cpu",
        action="store_false",
        help="time budgets in wall-clock time (default: the worker's CPU time, so that"
        " results do not depend on the machine's load)",
    )
    parser.add_argument("--json", help="write the results to this file")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep the games already in the --json file (a cut run) and play the rest",
    )
    parser.add_argument("--quiet", action="store_true", help="no line per game")
    opts = parser.parse_args(argv)
    for player in (opts.a, opts.b):
        if player != RANDOM and player not in {"1", "2", "3", "4", "5"}:
            parser.error(f"a player is a level 1-5 or 'random', not {player!r}")
    results: list[GameResult] = []
    if opts.resume and opts.json:
        results = _load(opts)
    done = {r.index for r in results}
    jobs = [
        (opts.game, (opts.a, opts.b), i, opts.seed, opts.time_scale, opts.max_plies, opts.cpu)
        for i in range(opts.games)
        if i not in done
    ]
    started = time.perf_counter()
    with Pool(opts.processes) as pool:
        for result in pool.imap_unordered(_play, jobs):
            results.append(result)
            if not opts.quiet:
                print(
                    f"game {result.index:3d}: A {result.a_side:5s} "
                    f"{'draw' if result.winner is None else result.winner.upper() + ' wins'} "
                    f"({result.reason}, {result.plies} plies, {result.seconds:.1f}s)",
                    flush=True,
                )
            if opts.json:  # after every game, so that a cut run still leaves its results
                _write(opts.json, _summary(opts, results, started), results)
    summary = _summary(opts, results, started)
    print(
        f"{opts.game}: A={opts.a} vs B={opts.b}, {summary['games']} games, time scale "
        f"{opts.time_scale}: A {summary['wins']} wins, {summary['draws']} draws, "
        f"{summary['losses']} losses, score {summary['score']:.3f}"
        f" (reasons {summary['reasons']}; nodes/s {summary['nodes_per_second']})"
    )
    return 0


def _summary(opts: argparse.Namespace, results: list[GameResult], started: float) -> dict:
    wins = sum(r.winner == "a" for r in results)
    losses = sum(r.winner == "b" for r in results)
    draws = len(results) - wins - losses
    nps = {}
    for who, player in (("a", opts.a), ("b", opts.b)):
        n = sum(r.nodes[who] for r in results)
        s = sum(r.search_seconds[who] for r in results)
        nps[player] = round(n / s) if s else None
    return {
        "game": opts.game,
        "a": opts.a,
        "b": opts.b,
        "games": len(results),
        "time_scale": opts.time_scale,
        "max_plies": opts.max_plies,
        "seed": opts.seed,
        "clock": "cpu" if opts.cpu else "wall",
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": round((wins + draws / 2) / len(results), 3) if results else 0.0,
        "nodes_per_second": nps,
        "reasons": dict(Counter(r.reason for r in results)),
        "seconds": round(time.perf_counter() - started, 1),
    }


def _load(opts: argparse.Namespace) -> list[GameResult]:
    """The games of an earlier run of the same match, if its file exists."""
    try:
        with open(opts.json) as f:
            old = json.load(f)
    except FileNotFoundError:
        return []
    same = ("game", "a", "b", "seed", "time_scale", "max_plies")
    if any(old[k] != getattr(opts, k) for k in same) or old["clock"] != (
        "cpu" if opts.cpu else "wall"
    ):
        raise SystemExit(f"{opts.json} holds another match; not resuming it")
    return [GameResult(**row) for row in old["results"] if row["index"] < opts.games]


def _write(path: str, summary: dict, results: list[GameResult]) -> None:
    rows = [asdict(r) for r in sorted(results, key=lambda r: r.index)]
    with open(path, "w") as out:
        json.dump({**summary, "results": rows}, out, indent=1)


if __name__ == "__main__":
    sys.exit(main())
