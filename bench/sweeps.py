"""Clock sweeps at scale: 1,000,000 active games (PostgreSQL), 1% past their deadline.

Times one sweep when none are due (the common case, every minute) and the sweeps
that end all the due games, and records the query plan of the idle sweep's query.
Run as ``python -m bench.sweeps [--quick]``: prints JSON.  Needs PostgreSQL.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

DATABASE = "carolo_bench_sweeps"
PLAYERS = 200


def _database(games: int) -> None:
    psql = ["psql", "-h", "127.0.0.1", "-U", "postgres", "-q"]
    subprocess.run([*psql, "-c", f"DROP DATABASE IF EXISTS {DATABASE}"], check=True)
    subprocess.run([*psql, "-c", f"CREATE DATABASE {DATABASE}"], check=True)
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"
    os.environ["LOG_LEVEL"] = "WARNING"  # the sweep logs every game it ends
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "carolo_site.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def _fill(games: int) -> float:
    """Bulk-create the games in SQL: every 100th is an hour overdue, the rest due later."""
    from django.db import connection

    from accounts.models import User
    from games import rules
    from games.models import Game, Move

    User.objects.bulk_create(
        User(username=f"sweep{n}", email=f"sweep{n}@example.org") for n in range(PLAYERS)
    )
    first = User.objects.order_by("pk").values_list("pk", flat=True).first()
    fen = rules.get("carolo").start().fen()
    half = PLAYERS // 2
    began = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            INSERT INTO {Game._meta.db_table} (variant, options, white_id, black_id, rated,
                days_per_move, status, start_fen, fen, ply, white_to_act, black_to_act,
                white_hidden, black_hidden, deadline, draw_offer, draw_declined, winner,
                result_reason, result_text, created_at, last_move_at, ended_at, version,
                plan_side)
            SELECT 'carolo', '{{}}', %(first)s + i %% %(half)s,
                %(first)s + %(half)s + i %% %(half)s, true,
                3, 'active', %(fen)s, %(fen)s, 2, true, false, 0, 0,
                CASE WHEN i %% 100 = 0 THEN now() - interval '1 hour'
                     ELSE now() + interval '1 day' + (i %% 1440) * interval '1 minute' END,
                '', '', '', '', '', now() - interval '4 days', now() - interval '3 days', NULL, 1,
                ''
            FROM generate_series(1, %(games)s) AS i
            """,
            {"first": first, "half": half, "fen": fen, "games": games},
        )
        # Both players of an overdue game have moved, so the one to act loses on time.
        for ply, side, player in ((1, "white", "white_id"), (2, "black", "black_id")):
            cursor.execute(
                f"""
                INSERT INTO {Move._meta.db_table} (game_id, ply, side, player_id, text,
                    fen_after, repetition_key, hidden, created_at)
                SELECT id, %s, %s, {player}, 'a1-a2', fen, '', false, now() - interval '3 days'
                FROM {Game._meta.db_table} WHERE deadline < now()
                """,
                [ply, side],
            )
        cursor.execute(f"ANALYZE {Game._meta.db_table}")
    return time.perf_counter() - began


def run(quick: bool = False) -> dict:
    from datetime import timedelta

    games = 100_000 if quick else 1_000_000
    _database(games)
    fill_seconds = _fill(games)

    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from games import clock
    from games.models import Game

    before_any = timezone.now() - timedelta(hours=2)
    idle = []
    for _ in range(50):
        began = time.perf_counter()
        assert clock.expire_overdue_games(before_any) == []
        idle.append(time.perf_counter() - began)
    with CaptureQueriesContext(connection) as idle_queries:
        clock.expire_overdue_games(before_any)
    [idle_query] = [query["sql"] for query in idle_queries.captured_queries]
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN ANALYZE {idle_query}")
        plan = "\n".join(row[0] for row in cursor.fetchall())

    now = timezone.now()
    ended, sweeps = 0, 0
    began = time.perf_counter()
    while batch := clock.expire_overdue_games(now):
        ended += len(batch)
        sweeps += 1
    busy_seconds = time.perf_counter() - began
    return {
        "games": games,
        "due": Game.objects.filter(status="finished", result_reason="time").count(),
        "fill_seconds": round(fill_seconds, 1),
        "idle_sweep_ms": {
            "median": round(statistics.median(idle) * 1000, 3),
            "max": round(max(idle) * 1000, 3),
        },
        "due_query_plan": plan,
        "uses_index": "game_due_idx" in plan,
        "ended": ended,
        "sweeps": sweeps,
        "batch": clock.BATCH,
        "sweep_limit": clock.SWEEP_LIMIT,
        "end_all_seconds": round(busy_seconds, 1),
    }


if __name__ == "__main__":
    print(json.dumps(run("--quick" in sys.argv), indent=2))
