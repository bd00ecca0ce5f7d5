"""Engine benchmarks: perft nodes per second, and the time to list and validate moves.

Run with ``python -m bench.engines [--quick]``; prints a table and returns the
figures as a dict (``bench/run.py`` merges them into ``bench/results.json``).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import time

from games import rules

# Each perft is counted at the shallowest depth that takes at least this long (quick
# mode: a tenth of it): a count of a few milliseconds measures the call, not the
# engine (Carge's middle game at depth 3, 6 ms: 2.2 M leaves/s; at depth 5, 0.6 s:
# 12.5 M). Middle-game positions are reached by a fixed random playout from the start.
MIN_SECONDS = 0.2
MAX_DEPTH = 8
# Perft starts where play is dense: Carge at the start of phase 2 with the barrier
# rule on, and for Shuuro the first fight position of a typical deployed army
# (placements alone are trivial to count).
START_FENS = {
    "carge": "p1pPp/1PpP1/P3p/pP1Pp/1PpP1 w a1n,b1n,b4e,c3e,d4n,e2n 0,0 3,3",
    "shuuro": "rnbqk_nbqbnrb/r1ppppp1_.2n/2_.9/10_.1/12/12/12/12/10_.1/1_.10"
    "/R2PPPP_.P2N/RNBQ_NBKQBNRB w - 39",
    "shuuro-mini": "1nkq1n/p2p_.1/6/6/P_.PP1P/3KBR w - 14",
}


def _available() -> list[str]:
    keys = []
    for key in rules.GAME_KEYS:
        try:
            rules.get(key)
        except (ImportError, AttributeError):
            continue
        keys.append(key)
    return keys


def start_position(key: str) -> rules.Position:
    game = rules.get(key)
    return game.from_fen(START_FENS[key]) if key in START_FENS else game.start()


def playout(position: rules.Position, plies: int, seed: int) -> rules.Position:
    """A reproducible random line of play (chance moves included)."""
    rng = random.Random(seed)
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(rng.choice(moves))
    return position


def perft_rate(position: rules.Position, min_seconds: float) -> dict:
    """Leaves a second of perft at the shallowest depth whose count takes
    ``min_seconds`` (or the deepest, ``MAX_DEPTH``, or where no leaf is left)."""
    fen = position.fen()
    for depth in range(1, MAX_DEPTH + 1):
        position = type(position).from_fen(fen)  # positions cache their moves
        began = time.perf_counter()
        nodes = position.perft(depth)
        seconds = time.perf_counter() - began
        if seconds >= min_seconds or not nodes:
            break
    return {
        "fen": position.fen(),
        "depth": depth,
        "nodes": nodes,
        "seconds": round(seconds, 3),
        "nodes_per_second": round(nodes / seconds) if seconds else None,
    }


def _percentiles(samples: list[float]) -> dict:
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return {
        "median_ms": round(statistics.median(samples) * 1000, 3),
        "p99_ms": round(p99 * 1000, 3),
    }


def move_timings(positions: list[rules.Position], rounds: int) -> dict:
    """Listing all legal moves, and validating one move from its text (as the site does).

    The collector is off while timing, as in ``timeit``: a full collection walks
    every object the process holds and would be charged to whichever move it
    interrupts (Shuuro's p99 of 4.3 ms in one run, 0.45 ms in the run before, looks
    like one such pause).  The site's processes keep what they load out of the
    collector for the same reason (``carolo_site/runtime.py``).
    """
    listing, validating = [], []
    gc.collect()
    gc.disable()
    try:
        _time_moves(positions, rounds, listing, validating)
    finally:
        gc.enable()
    return {"list_moves": _percentiles(listing), "validate_move": _percentiles(validating)}


def _time_moves(positions, rounds: int, listing: list, validating: list) -> None:
    for _ in range(rounds):
        for position in positions:
            position = type(position).from_fen(position.fen())  # positions cache their moves
            began = time.perf_counter()
            moves = position.legal_moves()
            listing.append(time.perf_counter() - began)
            if not moves:
                continue
            text = position.move_text(moves[len(moves) // 2])
            side = position.to_act[0]
            began = time.perf_counter()
            fresh = type(position).from_fen(position.fen())
            fresh.play(fresh.parse_move(text, side))
            validating.append(time.perf_counter() - began)


def run(quick: bool = False) -> dict:
    results = {}
    for key in _available():
        start = start_position(key)
        min_seconds = MIN_SECONDS / (10 if quick else 1)
        middles = [playout(start, 20 + 10 * i, seed=i) for i in range(2)]
        results[key] = {
            "start": perft_rate(start, min_seconds),
            "middle": [perft_rate(p, min_seconds) for p in middles],
            **move_timings(
                [start, *middles, *(playout(start, n, 7) for n in (5, 15, 30))],
                rounds=5 if quick else 30,
            ),
        }
    return results


def table(results: dict) -> str:
    lines = [
        f"{'game':12} {'perft start n/s':>16} {'middle n/s':>12} {'depths':>8}"
        f" {'list p99 ms':>12} {'validate p99 ms':>16}"
    ]
    for key, r in results.items():
        middle = min(m["nodes_per_second"] or 0 for m in r["middle"])
        depths = "/".join(str(p["depth"]) for p in (r["start"], *r["middle"]))
        lines.append(
            f"{key:12} {r['start']['nodes_per_second']:>16} {middle:>12} {depths:>8}"
            f" {r['list_moves']['p99_ms']:>12} {r['validate_move']['p99_ms']:>16}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    results = run(args.quick)
    print(table(results))
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
