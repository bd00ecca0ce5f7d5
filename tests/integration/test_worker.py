"""A real Celery worker and beat, on Redis and PostgreSQL, end games and send e-mail.

Runs when REDIS_URL and a PostgreSQL DATABASE_URL are set (as in .ci/run); fails,
rather than skips, when CI is set without them.  The worker and beat are
subprocesses that use the test database (committed rows: ``transactional_db``),
a Redis database of their own and a file e-mail backend in a temporary folder.
"""

from __future__ import annotations

import email
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.models import Game, Notification
from tests.notify.play import CARGE

pytestmark = pytest.mark.integration

CELERY = Path(sys.executable).with_name("celery")
ROOT = Path(__file__).resolve().parents[2]
# The worker's own Redis database, flushed before and after, apart from the tests' cache.
WORKER_REDIS_DB = os.getenv("INTEGRATION_REDIS_DB", "15")


def _needs_services():
    database_url = os.getenv("DATABASE_URL", "")
    if os.getenv("REDIS_URL") and database_url.startswith(("postgres://", "postgresql://")):
        return
    message = "the worker test needs REDIS_URL and a PostgreSQL DATABASE_URL"
    if os.getenv("CI"):
        pytest.fail(message)
    pytest.skip(message)


def _redis_url() -> str:
    # One database per xdist process (gw0, gw1, ...), so parallel runs keep apart.
    offset = int(os.getenv("PYTEST_XDIST_WORKER", "gw0")[2:] or 0)
    database = (int(WORKER_REDIS_DB) - offset) % 16
    return urlsplit(os.environ["REDIS_URL"])._replace(path=f"/{database}").geturl()


def _flush(redis_url: str) -> None:
    import redis

    redis.Redis.from_url(redis_url).flushdb()


class Mailbox:
    """The messages the worker's file backend wrote."""

    def __init__(self, folder: Path):
        self.folder = folder

    def messages(self) -> list[email.message.Message]:
        found = []
        for path in sorted(self.folder.glob("*.log")) if self.folder.exists() else []:
            for chunk in path.read_text().split("-" * 79):
                if chunk.strip():
                    found.append(email.message_from_string(chunk.strip("\n")))
        return found

    def subjects(self, to: str) -> list[str]:
        return [str(m["Subject"]) for m in self.messages() if m["To"] == to]


def wait_for(condition, timeout=60.0, what="the worker"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.25)
    pytest.fail(f"timed out waiting for {what}")


@pytest.fixture
def worker(transactional_db, tmp_path, settings):
    """A worker and a beat ticking every second; the test process sends to their broker."""
    _needs_services()
    from carolo_site.celery import app

    redis_url = _redis_url()
    _flush(redis_url)
    database = urlsplit(os.environ["DATABASE_URL"])
    test_db_url = database._replace(path="/" + connection.settings_dict["NAME"]).geturl()
    env = {
        **os.environ,
        "DATABASE_URL": test_db_url,
        "REDIS_URL": redis_url,
        "VAR_DIR": str(tmp_path),
        "CLOCK_SWEEP_SECONDS": "1",
        "SITE_URL": "https://carolo.example",
        "EMAIL_HOST": "",
        "PYTHONUNBUFFERED": "1",
    }
    logs = {name: open(tmp_path / f"{name}.log", "w") for name in ("worker", "beat")}  # noqa: SIM115
    common = [str(CELERY), "-A", "carolo_site"]
    processes = [
        subprocess.Popen(
            [*common, "worker", "--loglevel=INFO", "--concurrency=2", "--without-gossip"],
            cwd=ROOT,
            env=env,
            stdout=logs["worker"],
            stderr=subprocess.STDOUT,
        ),
        subprocess.Popen(
            [*common, "beat", "--loglevel=INFO", "-s", str(tmp_path / "beat-schedule")],
            cwd=ROOT,
            env=env,
            stdout=logs["beat"],
            stderr=subprocess.STDOUT,
        ),
    ]
    # This process publishes to the worker's broker instead of running tasks eagerly.
    saved = {key: app.conf[key] for key in ("task_always_eager", "broker_url")}
    pools = app._pool, app.amqp._producer_pool
    app.conf.update(task_always_eager=False, broker_url=redis_url)
    app._pool = app.amqp._producer_pool = None
    try:
        yield Mailbox(tmp_path / "mail")
    finally:
        app.conf.update(saved)
        app._pool, app.amqp._producer_pool = pools
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for log in logs.values():
            log.close()
        _flush(redis_url)
        print((tmp_path / "worker.log").read_text()[-4000:])


def start_game(alice, bob, *, now):
    challenge = services.create_challenge(
        alice, variant="carge", options=CARGE, color="white", opponent=bob, now=now
    )
    return services.accept_challenge(bob, challenge.pk, now=now)


def test_the_worker_ends_an_overdue_game_and_mails_both_players(worker, alice, bob):
    then = timezone.now() - timedelta(days=4)
    game = start_game(alice, bob, now=then)
    for text, player in (("@a1", alice), ("@a3", bob), ("@b1", alice)):
        game = services.play_move(player, game.pk, text, game.ply, now=then)
    assert game.deadline < timezone.now()  # bob's three days ran out yesterday

    wait_for(lambda: not Game.objects.get(pk=game.pk).is_active, what="the game to end")
    game = Game.objects.get(pk=game.pk)
    assert (game.status, game.winner, game.result_reason) == ("finished", "white", "time")
    wait_for(
        lambda: Notification.objects.filter(kind="result", sent_at__isnull=False).count() == 2,
        what="the result e-mails",
    )
    time.sleep(3)  # a few more sweeps: nothing is sent twice
    over = "Game over: Le Carge against"
    assert [s for s in worker.subjects(alice.email) if over in s] == [f"[Carolo] {over} bob"]
    assert [s for s in worker.subjects(bob.email) if over in s] == [f"[Carolo] {over} alice"]


def test_a_move_makes_the_worker_send_exactly_one_turn_email(worker, alice, bob):
    game = start_game(alice, bob, now=timezone.now())
    services.play_move(alice, game.pk, "@a1", 0)  # on commit: a task for the worker

    def bob_told():
        return any("Your move against alice" in s for s in worker.subjects(bob.email))

    wait_for(bob_told, what="bob's turn e-mail")
    time.sleep(3)  # beat sweeps every second meanwhile
    assert worker.subjects(bob.email) == ["[Carolo] Your move against alice (Le Carge)"]
    [message] = [m for m in worker.messages() if m["To"] == bob.email]
    assert message["List-Unsubscribe"].strip().startswith("<https://carolo.example/unsubscribe/")
    assert message.is_multipart()
    body = message.get_payload(0).get_payload(decode=True).decode()
    assert f"https://carolo.example/game/{game.pk}/" in body


def test_a_bot_answers_a_move_through_the_worker(worker, alice):
    from accounts.models import User
    from games.models import Move

    # A transactional test may have emptied the tables the migrations filled.
    bot, _ = User.objects.get_or_create(
        username="carolo-bot",
        defaults={"email": "carolo-bot@bots.invalid", "is_bot": True, "notify": "none"},
    )
    challenge = services.create_challenge(
        alice, variant="carolo", opponent=bot, color="white", bot_level=1
    )
    services.play_move(alice, challenge.game_id, "a1-a4", 0)
    wait_for(lambda: Game.objects.get(pk=challenge.game_id).ply >= 2, what="the bot's answer")
    reply = Move.objects.get(game_id=challenge.game_id, ply=2)
    assert reply.player == bot and reply.side == "black"
