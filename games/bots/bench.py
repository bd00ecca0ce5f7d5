"""Search speed per game: ``python -m games.bots.bench [--quick]``.

For ``make bench`` (``bench/run.py`` may call ``run`` and ``table``): a level-5
search of fixed length from the start (Shuuro: the start of the fight) and from a
position some moves in, reporting nodes, depth reached and nodes per second
(seconds of CPU time, so that a busy machine does not halve the figures).
"""

from __future__ import annotations

import argparse
import random
import time

from games import rules
from games.rules.base import CHANCE, Position

from . import search

GAMES = ("carolo", "carge", "rococo", "shuuro", "shuuro-mini")


def _first_position(game: str, rng: random.Random) -> Position:
    """The start, or for Shuuro the first position of the fight (set up by the bots)."""
    cls = rules.get(game)
    position = cls.start(rng=rng) if game == "carge" else cls.start()
    while position.phase in ("recruitment", "plinths", "deployment") or position.to_act == (
        CHANCE,
    ):
        acts = position.to_act
        if acts == (CHANCE,):
            move = rng.choice(position.legal_moves())
        else:
            move = search(position, acts[0], 3, rng=rng).move
        position = position.play(move)
    return position


def _later(position: Position, plies: int, rng: random.Random) -> Position:
    for _ in range(plies):
        if not position.to_act or position.outcome() is not None:
            break
        position = position.play(search(position, position.to_act[0], 2, rng=rng).move)
    return position


def run(quick: bool = False) -> dict[str, dict]:
    """Per game: nodes, seconds, nodes per second and depths of level-5 searches."""
    seconds = 0.5 if quick else 2.0
    results = {}
    for game in GAMES:
        rng = random.Random(1)
        first = _first_position(game, rng)
        positions = [first, _later(first, 10, rng)]
        nodes, spent, depths = 0, 0.0, []
        for position in positions:
            found = search(
                position,
                position.to_act[0],
                5,
                rng=rng,
                time_limit=seconds,
                clock=time.process_time,
            )
            nodes += found.nodes
            spent += found.seconds
            depths.append(found.depth)
        results[game] = {
            "nodes": nodes,
            "seconds": round(spent, 2),
            "nodes_per_second": round(nodes / spent) if spent else 0,
            "depths": depths,
        }
    return results


def table(results: dict[str, dict]) -> str:
    lines = [f"{'game':12s} {'nodes':>8s} {'seconds':>8s} {'nodes/s':>8s}  depths"]
    for game, row in results.items():
        lines.append(
            f"{game:12s} {row['nodes']:8d} {row['seconds']:8.2f} {row['nodes_per_second']:8d}"
            f"  {row['depths']}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m games.bots.bench", description=__doc__)
    parser.add_argument("--quick", action="store_true")
    print(table(run(parser.parse_args().quick)))


if __name__ == "__main__":
    main()
