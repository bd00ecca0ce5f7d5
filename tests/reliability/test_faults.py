"""Faults on PostgreSQL: a worker killed in the middle of the clock sweep, and the
database restarted while players poll.  Both need a real PostgreSQL server."""

import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection, connections
from django.utils import timezone

from games import services
from games.clock import BATCH, expire_overdue_games
from games.models import Game, Notification, RatingChange
from tests.conftest import make_player

ROOT = Path(__file__).resolve().parents[2]
PG_RESTART = ["pg_ctlcluster", "--skip-systemctl-redirect"]


@pytest.fixture
def postgres(transactional_db):
    if connection.vendor != "postgresql":
        if os.environ.get("CI"):
            pytest.fail("CI must run the fault tests on PostgreSQL")
        pytest.skip("fault tests need PostgreSQL (set DATABASE_URL)")


def overdue_games(count):
    alice, bob = make_player("alice"), make_player("bob")
    ids = []
    for _ in range(count):
        challenge = services.create_challenge(alice, variant="carge", color="white", opponent=bob)
        game = services.accept_challenge(bob, challenge.pk)
        game = services.play_move(alice, game.pk, "@a1", 0)
        game = services.play_move(bob, game.pk, "@a2", 1)
        ids.append(game.pk)
    Game.objects.filter(pk__in=ids).update(deadline=timezone.now() - timedelta(minutes=5))
    return ids


def test_a_sweep_killed_midway_ends_each_game_once(postgres):
    ids = overdue_games(60)
    database = connection.settings_dict
    url = f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    code = (
        "import django, os, time; django.setup()\n"
        "from games import clock, services\n"
        "slow, calls = services.expire_if_overdue, []\n"
        "def slowly(game, now):\n"
        "    calls.append(game.pk)\n"
        "    time.sleep(0.05 if len(calls) <= clock.BATCH else 1)\n"
        "    return slow(game, now)\n"
        "services.expire_if_overdue = slowly\n"
        "clock.expire_overdue_games()\n"
    )
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "carolo_site.settings"}
    worker = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=ROOT)
    # Kill it once its first batch is committed: the second takes 10 s more, so a
    # stalled test process still finds some games ended, not all.
    for _ in range(400):
        if Game.objects.filter(pk__in=ids, status="finished").count() >= 10:
            break
        time.sleep(0.05)
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    half_done = Game.objects.filter(pk__in=ids, status="finished").count()
    assert half_done == BATCH  # the first batch's transaction, whole; none of the second

    ended_again = expire_overdue_games()  # the next sweep (or the redelivered task)
    assert len(ended_again) == len(ids) - half_done
    assert Game.objects.filter(pk__in=ids, status="finished", result_reason="time").count() == 60
    assert RatingChange.objects.filter(game_id__in=ids).count() == 2 * len(ids)
    results = Notification.objects.filter(game_id__in=ids, kind="result")
    assert results.count() == 2 * len(ids)  # one result e-mail per player per game
    assert expire_overdue_games() == []


def test_polls_fail_cleanly_while_postgres_restarts_and_recover(postgres, live_server):
    ids = overdue_games(1)
    Game.objects.filter(pk__in=ids).update(deadline=timezone.now() + timedelta(days=1))
    url = f"{live_server.url}/game/{ids[0]}/poll?v=0"
    statuses, stop = [], threading.Event()

    def status() -> int | str:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code
        except OSError as error:  # the server itself must stay up: this would show it
            return type(error).__name__

    def poll():
        while not stop.is_set():
            statuses.append(status())
            time.sleep(0.05)

    poller = threading.Thread(target=poll)
    poller.start()
    time.sleep(0.5)
    version = subprocess.run(["ls", "/etc/postgresql"], capture_output=True, text=True)
    subprocess.run([*PG_RESTART, version.stdout.split()[0], "main", "restart"], check=True)
    for _ in range(60):
        if subprocess.run(["pg_isready", "-h", "127.0.0.1", "-q"]).returncode == 0:
            break
        time.sleep(0.5)
    time.sleep(1.5)
    stop.set()
    poller.join()
    connections.close_all()  # this test's own connection died with the restart

    assert set(statuses) <= {200, 503}, statuses
    assert statuses[-1] == 200, "the site did not recover without a restart"
    assert status() == 200
