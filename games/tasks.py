"""Celery tasks: thin wrappers around the clock and notification services.

They take ids or nothing (sweeps), are idempotent, ack late (a task lost with its
worker runs again) and retry transient errors with backoff.
"""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task
from django.db import OperationalError

from games import clock, notify

TRANSIENT = (SMTPException, ConnectionError, TimeoutError, OperationalError)
OPTIONS = {
    "acks_late": True,
    "autoretry_for": TRANSIENT,
    "retry_backoff": True,
    "retry_backoff_max": 600,
    "retry_jitter": True,
    "max_retries": 8,
}


@shared_task(**OPTIONS)
def expire_overdue_games() -> list[int]:
    """Every minute: end the games whose deadline has passed."""
    return clock.expire_overdue_games()


@shared_task(**OPTIONS)
def deliver_notifications() -> int:
    """On commit of a change, and every minute: send the due e-mails of the outbox."""
    return notify.deliver_due()


@shared_task(**OPTIONS)
def queue_reminders() -> int:
    """Every few minutes: reminders for players in the last fifth of their time."""
    return clock.queue_reminders()


@shared_task(**OPTIONS)
def end_vacations() -> int:
    """Every minute: end the vacations that have run their course, extending deadlines."""
    return clock.end_due_vacations()


@shared_task(**OPTIONS)
def queue_daily_digests() -> int:
    """Hourly: the daily digest of each 'daily' player, once their morning has come."""
    return notify.queue_daily_digests()


@shared_task(**OPTIONS)
def bot_move(game_id: int) -> int:
    """After a move that gave a bot the turn: the bot searches and plays."""
    from games import bot_play

    return bot_play.play_turns(game_id)


@shared_task(**OPTIONS)
def bot_answer_draw(game_id: int) -> str | None:
    """After a draw offer to a bot: the bot accepts or declines it."""
    from games import bot_play

    return bot_play.answer_draw(game_id)


@shared_task(**OPTIONS)
def wake_bots() -> int:
    """Every minute: restart bots whose turn (or draw answer) task was lost."""
    from games import bot_play

    return bot_play.wake_waiting()
