"""Move latency under load, against the production setup on this machine.

gunicorn with the production settings on PostgreSQL and Redis, a real Celery
worker, and the load generator (bench/load_client.py) in a separate process.
Needs PostgreSQL and Redis on 127.0.0.1 (as .ci/run starts them).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from bench import cpu
from bench.latency import summary

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PORT = 8765
URL = f"http://127.0.0.1:{PORT}"
DATABASE = "carolo_bench"
LEVELS = (8, 32, 128)
THROUGHPUT_PLAYERS = 32
GAMES_PER_PAIR = 12
GENERATOR_PROCESSES = 2
# One sync worker per core: a move is CPU work, and on two shared cores a third
# or fourth worker only queues on the CPU (4 workers: p50 at 32 players 38 ms, not 21).
WEB_WORKERS = os.cpu_count() or 2
WARM_UP_SECONDS = 5  # a first stage, not reported: connections, imports, caches
# gunicorn's access log: method, path, status and the time the worker spent on the
# request, in microseconds, from its parsed headers to its last byte written.
ACCESS_FORMAT = "%(m)s %(U)s %(s)s %(D)s"
MOVE_PATH = re.compile(r"/api/games/\d+/moves")
GAME_PATH = re.compile(r"/api/games/\d+")


def server_times(lines) -> dict:
    """The web worker's own time for the moves and the game reads (polls) in
    ``lines`` of the access log: what a request waited for before a worker took
    it, and the generator's side, are left out."""
    times = {"move": [], "poll": []}
    for line in lines:
        method, path, _status, micros = line.split()
        if method == "POST" and MOVE_PATH.fullmatch(path):
            times["move"].append(int(micros) / 1_000_000)
        elif method == "GET" and GAME_PATH.fullmatch(path):
            times["poll"].append(int(micros) / 1_000_000)
    return {kind: summary(samples) for kind, samples in times.items() if samples}


def _env(var_dir: str) -> dict:
    return {
        **os.environ,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
        "REDIS_URL": "redis://127.0.0.1:6379/7",
        "DEBUG": "False",
        "SECRET_KEY": "bench-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "False",
        "SECURE_COOKIES": "False",
        "VAR_DIR": var_dir,
        "LOG_LEVEL": "WARNING",
        "DB_CONN_MAX_AGE": "60",
        # Measure the server, not the per-token limit (its Redis round trips still count).
        "API_MOVES_PER_MINUTE": "1000000",
    }


def _run(args, env, **kwargs):
    return subprocess.run(args, env=env, cwd=ROOT, check=True, **kwargs)


def _wait_for(url: str, seconds: float = 30) -> None:
    stop = time.time() + seconds
    while time.time() < stop:
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer")


def run(quick: bool = False) -> dict:
    seconds = 8 if quick else 30
    with tempfile.TemporaryDirectory() as var_dir:
        env = _env(var_dir)
        psql = ["psql", "-h", "127.0.0.1", "-U", "postgres", "-q"]
        _run([*psql, "-c", f"DROP DATABASE IF EXISTS {DATABASE}"], env)
        _run([*psql, "-c", f"CREATE DATABASE {DATABASE}"], env)
        _run(["redis-cli", "-n", "7", "flushdb"], env, stdout=subprocess.DEVNULL)
        _run([BIN / "python", "manage.py", "migrate", "-v0"], env)
        _run([BIN / "python", "manage.py", "collectstatic", "--noinput", "-v0"], env)
        pairs_file = Path(var_dir) / "pairs.json"
        with pairs_file.open("w") as out:
            _run(
                [BIN / "python", "-m", "bench.load_setup", str(max(LEVELS)), str(GAMES_PER_PAIR)],
                env,
                stdout=out,
            )
        access_log = Path(var_dir) / "access.log"
        server = subprocess.Popen(
            [
                BIN / "gunicorn",
                "carolo_site.wsgi",
                "--bind",
                f"127.0.0.1:{PORT}",
                "--workers",
                str(WEB_WORKERS),
                "--log-level",
                "warning",
                "--access-logfile",
                str(access_log),
                "--access-logformat",
                ACCESS_FORMAT,
            ],
            env=env,
            cwd=ROOT,
        )
        worker = subprocess.Popen(
            [
                BIN / "celery",
                "-A",
                "carolo_site",
                "worker",
                "--pool",
                "solo",
                "--loglevel",
                "WARNING",
            ],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,  # the embedded mail backend echoes every e-mail
            stderr=subprocess.DEVNULL,
        )
        try:
            _wait_for(f"{URL}/health/")
            client = [BIN / "python", "-m", "bench.load_client", URL, str(pairs_file)]
            client_options = ["--processes", str(GENERATOR_PROCESSES)]

            parts = {"web": server.pid, "worker": worker.pid}

            def drive(players: int, mode: str, seconds: float = seconds, *extra) -> dict:
                args = [*client, str(players), str(seconds), "--mode", mode, *extra]
                if mode != "script":
                    args += client_options
                logged = access_log.stat().st_size if access_log.exists() else 0
                figures = json.loads(_run(args, env, stdout=subprocess.PIPE, text=True).stdout)
                if mode in ("poll", "throughput"):
                    with access_log.open() as log:
                        log.seek(logged)
                        figures["server"] = server_times(log)
                return figures

            def measured(players: int, mode: str, *extra) -> dict:
                """A stage, with the CPU each part spent on it per request."""
                before = cpu.snapshot(parts) if cpu.available() else None
                figures = drive(players, mode, seconds, *extra)
                if before:
                    done = figures.get("requests") or figures["move_statuses"].get("200", 0)
                    figures["cpu_ms_per_request"] = cpu.per_request(
                        before, cpu.snapshot(parts), done
                    )
                return figures

            drive(min(LEVELS), "poll", WARM_UP_SECONDS)
            figures = {str(count): drive(count, "poll") for count in LEVELS}
            scripts = Path(var_dir) / "scripts.json"
            scripts.write_text(json.dumps(drive(THROUGHPUT_PLAYERS, "script")))
            # The ceiling just before and just after the moves, so that the machine's
            # drift over a minute weighs on both sides of the ratio alike.
            before = measured(THROUGHPUT_PLAYERS, "trivial")
            throughput = measured(THROUGHPUT_PLAYERS, "throughput", "--scripts", str(scripts))
            after = measured(THROUGHPUT_PLAYERS, "trivial")
            ceiling = _ceiling(before, after)
        finally:
            for process in (server, worker):
                process.send_signal(signal.SIGTERM)
            for process in (server, worker):
                process.wait(timeout=30)
    return {
        "setup": f"gunicorn {WEB_WORKERS} sync workers, DEBUG=False, PostgreSQL, Redis, "
        "1 Celery worker; "
        f"Carolo games through the token API, random legal moves; generator in "
        f"{GENERATOR_PROCESSES} processes; {seconds} s a stage",
        "levels": figures,
        "throughput": throughput,
        "trivial_view": ceiling,
        "move_throughput_vs_trivial": round(
            throughput["moves_per_second"] / ceiling["requests_per_second"], 3
        ),
    }


def _ceiling(before: dict, after: dict) -> dict:
    """The trivial view's two stages: their mean rate, and each as measured."""
    rate = (before["requests_per_second"] + after["requests_per_second"]) / 2
    return {
        "connections": before["connections"],
        "requests_per_second": round(rate, 1),
        "before_moves": before,
        "after_moves": after,
    }


def table(results: dict) -> str:
    lines = [
        f"{'players':>8} {'moves/s':>8} {'move p50':>9} {'p95':>7} {'p99':>7} {'poll p99':>9}"
        f"   server: {'move p50':>8} {'p99':>7} {'poll p99':>9}"
    ]
    for count, r in results["levels"].items():
        server_move, server_poll = (r.get("server", {}).get(k, {}) for k in ("move", "poll"))
        lines.append(
            f"{count:>8} {r['moves_per_second']:>8} {r['move'].get('p50_ms', '-'):>9} "
            f"{r['move'].get('p95_ms', '-'):>7} {r['move'].get('p99_ms', '-'):>7} "
            f"{r['poll'].get('p99_ms', '-'):>9}"
            f"           {server_move.get('p50_ms', '-'):>8} "
            f"{server_move.get('p99_ms', '-'):>7} {server_poll.get('p99_ms', '-'):>9}"
        )
    trivial, most = results["trivial_view"], results["throughput"]
    server_move = most.get("server", {}).get("move", {})
    lines.append(
        f"moves back to back at {most['players']} players: {most['moves_per_second']} moves/s "
        f"(p50 {most['move'].get('p50_ms')} ms, p99 {most['move'].get('p99_ms')} ms; "
        f"server p50 {server_move.get('p50_ms')} ms, p99 {server_move.get('p99_ms')} ms); "
        f"trivial view: {trivial['requests_per_second']} req/s at "
        f"{trivial['connections']} connections "
        f"({trivial['before_moves']['requests_per_second']} before the moves, "
        f"{trivial['after_moves']['requests_per_second']} after); "
        f"moves = {results['move_throughput_vs_trivial']:.0%} of it"
    )
    for label, stage in (
        ("a move back to back", most),
        ("a trivial request (before)", trivial["before_moves"]),
        ("a trivial request (after)", trivial["after_moves"]),
    ):
        if spent := stage.get("cpu_ms_per_request"):
            shares = ", ".join(f"{part} {ms}" for part, ms in spent.items() if part != "in_all")
            lines.append(f"CPU ms for {label}: {spent['in_all']} in all ({shares})")
    return "\n".join(lines)


if __name__ == "__main__":
    results = run("--quick" in sys.argv)
    print(table(results))
