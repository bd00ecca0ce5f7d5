"""The load generator: simulated players over HTTP, in processes of its own.

``python -m bench.load_client <base url> <pairs.json> <players> <seconds> [--mode M]``
drives ``players`` players (two per game, tokens from ``pairs.json``) through the
real API and prints JSON figures.  Modes:

* ``poll`` (the default): each player polls its game every POLL_EVERY seconds with
  ``If-None-Match`` (a 304 while nothing changed) and, when it may act, plays a
  random legal move at once with the ply it saw.  Latency of both requests.
* ``script``: work out random legal moves from where each pair's games stand
  (SCRIPTED_PLIES a pair, with the rules engine) and print them, for:
* ``throughput`` (``--scripts FILE``): the two players of each game move back to
  back, as fast as the server answers, so no poll is needed, playing the scripted
  moves: during the stage the generator's CPU, on the server's two cores, goes to
  HTTP as in the ``trivial`` mode.  The moves per second the server sustains.
* ``trivial``: GET /health/ from ``players`` connections, as fast as it answers:
  the ceiling of the same server and generator.

Players are spread over ``--processes`` processes (each an asyncio loop), so that
the generator is not the bottleneck of a multi-process server.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import time
from multiprocessing import Pool

import httpx

from bench.latency import summary

POLL_EVERY = 1.0  # seconds between polls while waiting for the opponent
SCRIPTED_PLIES = 500  # a pair's moves worked out before the throughput stage's clock


def _stats() -> dict:
    return {"poll": [], "move": [], "status": {}, "polls_304": 0}


def _bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


async def _state(client, game_id, token) -> dict:
    return (await client.get(f"/api/games/{game_id}", headers=_bearer(token))).json()


def _count(stats: dict, status: int) -> None:
    stats["status"][status] = stats["status"].get(status, 0) + 1


async def _move(client, stats, headers, game_id, move, ply):
    began = time.perf_counter()
    response = await client.post(
        f"/api/games/{game_id}/moves", headers=headers, json={"move": move, "ply": ply}
    )
    stats["move"].append(time.perf_counter() - began)
    _count(stats, response.status_code)
    return response


async def _poller(client, token, games, stop_at, stats, rng):
    """A player: poll, move when it may act, poll again after POLL_EVERY."""
    headers = _bearer(token)
    etag = None
    await asyncio.sleep(rng.random() * POLL_EVERY)  # players do not all start at once
    for game_id in games:
        while time.perf_counter() < stop_at:
            began = time.perf_counter()
            response = await client.get(
                f"/api/games/{game_id}",
                headers={**headers, **({"If-None-Match": etag} if etag else {})},
            )
            stats["poll"].append(time.perf_counter() - began)
            if response.status_code == 304:
                stats["polls_304"] += 1
                await asyncio.sleep(POLL_EVERY)
                continue
            etag = response.headers.get("ETag")
            state = response.json()
            if state["status"] != "active":
                etag = None
                break  # on to this pair's next game
            if state["legal_moves"]:
                move = rng.choice(state["legal_moves"])
                answer = await _move(client, stats, headers, game_id, move, state["ply"])
                etag = answer.headers.get("ETag", etag)
            await asyncio.sleep(POLL_EVERY)


async def _script(client, pair, rng) -> list:
    """Each of the pair's active games with random moves from where it stands.

    The script follows the engine's own endings; the server may end a game sooner
    (by repetition), and a game that outlives its script goes on with the engine.
    """
    from games import rules

    scripted, plies = [], 0
    for game_id in pair["games"]:
        if plies >= SCRIPTED_PLIES:
            scripted.append((game_id, None, []))
            continue
        state = await _state(client, game_id, pair["white"])
        if state["status"] != "active":
            continue
        position, moves = rules.get(state["game"]).from_fen(state["fen"]), []
        while plies < SCRIPTED_PLIES and position.to_act:
            side = position.to_act[0]
            move = rng.choice(position.legal_moves(side))
            moves.append((side, position.move_text(move)))
            position = position.play(move)
            plies += 1
        scripted.append((game_id, state, moves))
    return scripted


async def _pair(client, pair, stop_at, stats, rng):
    """Both players of a pair, moving back to back through their scripted games."""
    from games import rules

    for game_id, state, moves in pair["script"]:
        if state is None:
            state = await _state(client, game_id, pair["white"])
        moves = iter(moves)
        while time.perf_counter() < stop_at and state["status"] == "active":
            side, move = next(moves, (None, None))
            if move is None:  # past the script: the engine picks
                position = rules.get(state["game"]).from_fen(state["fen"])
                side = position.to_act[0]
                move = position.move_text(rng.choice(position.legal_moves(side)))
            response = await _move(client, stats, _bearer(pair[side]), game_id, move, state["ply"])
            if response.status_code == 200:
                state = response.json()
            else:  # off the script: on with the engine
                moves = iter(())
                state = await _state(client, game_id, pair[side])
        if time.perf_counter() >= stop_at:
            return


async def _hammer(client, stop_at, stats):
    while time.perf_counter() < stop_at:
        began = time.perf_counter()
        response = await client.get("/health/")
        stats["poll"].append(time.perf_counter() - began)
        _count(stats, response.status_code)


async def _drive(url, mode, pairs, connections, seconds, seed) -> dict:
    stats = _stats()
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as client:
        rngs = [random.Random(f"{seed}-{n}") for n in range(len(pairs))]
        if mode == "script":
            return [await _script(client, pair, rng) for pair, rng in zip(pairs, rngs, strict=True)]
        stop_at = time.perf_counter() + seconds
        began = time.perf_counter()
        if mode == "trivial":
            tasks = [_hammer(client, stop_at, stats) for _ in range(connections)]
        elif mode == "throughput":
            tasks = [
                _pair(client, pair, stop_at, stats, rng)
                for pair, rng in zip(pairs, rngs, strict=True)
            ]
        else:
            tasks = [
                _poller(
                    client,
                    pair[side],
                    pair["games"],
                    stop_at,
                    stats,
                    random.Random(f"{seed}-{n}-{side}"),
                )
                for n, pair in enumerate(pairs)
                for side in ("white", "black")
            ]
        await asyncio.gather(*tasks)
        stats["elapsed"] = time.perf_counter() - began
    return stats


def _process(job) -> dict:
    # The generator's own collector pauses would count as the server's latency.
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    return asyncio.run(_drive(*job))


def run(url: str, pairs: list, players: int, seconds: float, mode: str, processes: int) -> dict:
    """Drive ``players`` players (connections in trivial mode) of ``pairs``; the figures."""
    processes = max(1, min(processes, players // 2 if mode != "trivial" else players))
    jobs = [
        (
            url,
            mode,
            pairs[n::processes],
            max(1, players // processes) if mode == "trivial" else 2 * len(pairs[n::processes]),
            seconds,
            n,
        )
        for n in range(processes)
    ]
    with Pool(processes) as pool:
        parts = pool.map(_process, jobs)
    elapsed = max(part["elapsed"] for part in parts)
    merged = _stats()
    for part in parts:
        for key in ("poll", "move"):
            merged[key] += part[key]
        merged["polls_304"] += part["polls_304"]
        for status, count in part["status"].items():
            merged["status"][status] = merged["status"].get(status, 0) + count
    statuses = {str(k): v for k, v in sorted(merged["status"].items())}
    if mode == "trivial":
        return {
            "connections": players,
            "requests": len(merged["poll"]),
            "requests_per_second": round(len(merged["poll"]) / elapsed, 1),
            "latency": summary(merged["poll"]),
            "statuses": statuses,
        }
    result = {
        "players": players,
        "seconds": round(elapsed, 1),
        "moves_per_second": round(merged["status"].get(200, 0) / elapsed, 1),
        "move": summary(merged["move"]),
        "move_statuses": statuses,
    }
    if mode == "poll":
        result["poll"] = summary(merged["poll"])
        result["polls_unchanged_304"] = merged["polls_304"]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("url")
    parser.add_argument("pairs")
    parser.add_argument("players", type=int)
    parser.add_argument("seconds", type=float)
    parser.add_argument(
        "--mode", choices=("poll", "script", "throughput", "trivial"), default="poll"
    )
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--scripts", help="throughput: the output of --mode script")
    args = parser.parse_args()
    with open(args.pairs) as handle:
        pairs = json.load(handle)[: args.players // 2]
    if args.mode == "script":
        print(json.dumps(asyncio.run(_drive(args.url, "script", pairs, 1, 0, 0))))
        return
    if args.mode == "throughput":
        with open(args.scripts) as handle:
            scripts = json.load(handle)
        pairs = [{**pair, "script": script} for pair, script in zip(pairs, scripts, strict=True)]
    print(json.dumps(run(args.url, pairs, args.players, args.seconds, args.mode, args.processes)))


if __name__ == "__main__":
    main()
