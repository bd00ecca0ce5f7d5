"""The load generator: simulated players over HTTP, in its own process.

``python -m bench.load_client <base url> <pairs.json> <players> <seconds>`` drives
``players`` players (two per game) through the real API: each polls its game and,
when it may act, plays a random legal move with the ply it saw.  With ``--trivial``
it instead hammers /health/ from ``players`` connections.  Prints JSON figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time

import httpx

POLL_EVERY = 1.0  # seconds between polls while waiting for the opponent


def _summary(samples: list[float]) -> dict:
    if not samples:
        return {"count": 0}
    samples = sorted(samples)

    def pick(q: float) -> float:
        return round(samples[min(len(samples) - 1, int(len(samples) * q))] * 1000, 2)

    return {
        "count": len(samples),
        "p50_ms": round(statistics.median(samples) * 1000, 2),
        "p95_ms": pick(0.95),
        "p99_ms": pick(0.99),
    }


async def _player(client, token, games, stop_at, stats, rng):
    headers = {"Authorization": f"Bearer {token}"}
    for game_id in games:
        while time.perf_counter() < stop_at:
            began = time.perf_counter()
            response = await client.get(f"/api/games/{game_id}", headers=headers)
            stats["poll"].append(time.perf_counter() - began)
            state = response.json()
            if state["status"] != "active":
                break  # on to this pair's next game
            if not state.get("legal_moves"):
                await asyncio.sleep(POLL_EVERY)
                continue
            move = rng.choice(state["legal_moves"])
            began = time.perf_counter()
            response = await client.post(
                f"/api/games/{game_id}/moves",
                headers=headers,
                json={"move": move, "ply": state["ply"]},
            )
            stats["move"].append(time.perf_counter() - began)
            stats["status"][response.status_code] = stats["status"].get(response.status_code, 0) + 1


async def players(url, pairs, count, seconds) -> dict:
    stats = {"poll": [], "move": [], "status": {}}
    limits = httpx.Limits(max_connections=count, max_keepalive_connections=count)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as client:
        stop_at = time.perf_counter() + seconds
        began = time.perf_counter()
        tasks = []
        for n, pair in enumerate(pairs[: count // 2]):
            for side in ("white", "black"):
                rng = random.Random(f"{n}-{side}")
                tasks.append(_player(client, pair[side], pair["games"], stop_at, stats, rng))
        await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - began
    return {
        "players": count,
        "seconds": round(elapsed, 1),
        "moves_per_second": round(stats["status"].get(200, 0) / elapsed, 1),
        "move": _summary(stats["move"]),
        "poll": _summary(stats["poll"]),
        "move_statuses": {str(k): v for k, v in sorted(stats["status"].items())},
    }


async def trivial(url, count, seconds) -> dict:
    samples = []
    limits = httpx.Limits(max_connections=count, max_keepalive_connections=count)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as client:
        stop_at = time.perf_counter() + seconds

        async def hammer():
            while time.perf_counter() < stop_at:
                began = time.perf_counter()
                await client.get("/health/")
                samples.append(time.perf_counter() - began)

        began = time.perf_counter()
        await asyncio.gather(*(hammer() for _ in range(count)))
        elapsed = time.perf_counter() - began
    return {
        "connections": count,
        "requests_per_second": round(len(samples) / elapsed, 1),
        "latency": _summary(samples),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("pairs")
    parser.add_argument("players", type=int)
    parser.add_argument("seconds", type=float)
    parser.add_argument("--trivial", action="store_true")
    args = parser.parse_args()
    if args.trivial:
        result = asyncio.run(trivial(args.url, args.players, args.seconds))
    else:
        with open(args.pairs) as handle:
            pairs = json.load(handle)
        result = asyncio.run(players(args.url, pairs, args.players, args.seconds))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
