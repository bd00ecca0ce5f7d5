"""Correspondence clocks: time left, the sweep that ends overdue games, reminders, vacations.

Clocks run by periodic sweeps over indexed due rows, never by per-game timers.

Vacation pauses a player's clocks.  The deadline itself is not moved while the
player is away: the expiry check treats a game as paused when a player to act
is on vacation and the deadline fell after the vacation began.  When the
vacation ends (by the player, or by the sweep at ``vacation_until``), each
deadline of theirs is pushed back by the part of the vacation that overlapped
their turn, so a turn that arrived mid-vacation gets exactly its full time.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import ratings
from games.models import DAYS_PER_MOVE, Game

log = logging.getLogger(__name__)

REMINDER_AT = 0.8  # a reminder once this share of the time for a move has passed
VACATION_DAYS_PER_YEAR = 30
SWEEP_LIMIT = 2000  # games looked at per sweep; the next sweep takes the rest
# Games ended per transaction.  Larger batches gained nothing measurable (each game
# still costs a query in services.expire_if_overdue), and a killed sweep loses less.
BATCH = 50
# What game.save() writes: whatever ending a game changes.
GAME_FIELDS = [field.name for field in Game._meta.concrete_fields if not field.primary_key]


# -- display ------------------------------------------------------------------------------


def time_left(game: Game, now: datetime | None = None) -> timedelta | None:
    """Time until the deadline (negative when overdue); None without a clock."""
    if not game.is_active or game.deadline is None:
        return None
    return game.deadline - (now or timezone.now())


def humanize(left: timedelta) -> str:
    """'2 days 4 hours left', '3 hours left', '12 minutes left' or 'overdue'."""
    if left <= timedelta(0):
        return _("overdue")
    minutes = int(left.total_seconds() // 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    day_text = ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
    hour_text = ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    if days and hours:
        return _("%(days)s %(hours)s left") % {"days": day_text, "hours": hour_text}
    if days:
        return _("%(time)s left") % {"time": day_text}
    if hours:
        return _("%(time)s left") % {"time": hour_text}
    minutes = max(minutes, 1)
    minute_text = ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
    return _("%(time)s left") % {"time": minute_text}


def time_left_text(game: Game, now: datetime | None = None) -> str:
    """What the game page and e-mails show: '' without a clock, 'on vacation' when paused."""
    now = now or timezone.now()
    left = time_left(game, now)
    if left is None:
        return ""
    if is_paused(game, now):
        return _("on vacation")
    return humanize(left)


# -- vacation -----------------------------------------------------------------------------


class VacationError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def on_vacation(user, now: datetime | None = None) -> bool:
    started = user.vacation_started_at
    return started is not None and started <= (now or timezone.now())


def is_paused(game: Game, now: datetime) -> bool:
    """True when a player to act is on a vacation that began before their deadline."""
    if game.deadline is None:
        return False
    for side in game.to_act():
        started = game.player(side).vacation_started_at
        if started is not None and started <= now and game.deadline > started:
            return True
    return False


def vacation_days_left(user, now: datetime | None = None) -> int:
    year = (now or timezone.now()).year
    used = user.vacation_days_used if user.vacation_year == year else 0
    return max(VACATION_DAYS_PER_YEAR - used, 0)


def start_vacation(user, days: int, *, now: datetime | None = None):
    now = now or timezone.now()
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        if user.vacation_started_at is not None:
            raise VacationError(_("You are already on vacation."))
        left = vacation_days_left(user, now)
        if not 1 <= days <= left:
            raise VacationError(
                ngettext(
                    "You have %(count)d day of vacation left this year.",
                    "You have %(count)d days of vacation left this year.",
                    left,
                )
                % {"count": left}
            )
        if user.vacation_year != now.year:
            user.vacation_year, user.vacation_days_used = now.year, 0
        user.vacation_days_used += days
        user.vacation_started_at = now
        user.vacation_until = now + timedelta(days=days)
        user.save(
            update_fields=[
                "vacation_started_at",
                "vacation_until",
                "vacation_days_used",
                "vacation_year",
            ]
        )
    return user


def end_vacation(user, *, now: datetime | None = None):
    """End the vacation at ``now`` (or its planned end, if earlier) and extend deadlines."""
    now = now or timezone.now()
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        started, until = user.vacation_started_at, user.vacation_until
        if started is None:
            return user
        end = min(now, until) if until else now
        games = Game.objects.select_for_update().filter(
            Q(white=user, white_to_act=True) | Q(black=user, black_to_act=True),
            status=Game.Status.ACTIVE,
            deadline__gt=started,
        )
        for game in games:
            turn_start = game.deadline - timedelta(days=game.days_per_move or 0)
            paused = end - max(started, turn_start)
            if paused > timedelta(0):
                game.deadline += paused
                game.version += 1
                game.save(update_fields=["deadline", "version"])
        if until and end < until and user.vacation_year == started.year:
            unused = (until - end).days  # whole days not taken are given back
            user.vacation_days_used = max(user.vacation_days_used - unused, 0)
        user.vacation_started_at = user.vacation_until = None
        user.save(update_fields=["vacation_started_at", "vacation_until", "vacation_days_used"])
    return user


def end_due_vacations(now: datetime | None = None) -> int:
    """End every vacation whose planned end has come; the number ended."""
    now = now or timezone.now()
    due = get_user_model().objects.filter(
        vacation_started_at__isnull=False, vacation_until__lte=now
    )
    count = 0
    for user in due:
        end_vacation(user, now=now)
        count += 1
    return count


# -- sweeps -------------------------------------------------------------------------------


def expire_overdue_games(now: datetime | None = None) -> list[int]:
    """End every game whose deadline has passed, a batch per transaction; the ids ended.

    When nothing is due this is one query on the partial index ``game_due_idx``.
    Each batch is claimed with one ``SELECT … FOR UPDATE SKIP LOCKED``, and each
    game in it is checked again and ended under the lock by
    ``services.expire_if_overdue``, as a late move would; the batch's games,
    ratings and result e-mails are then written in bulk.  Two sweeps at once (or a
    re-delivered task) take different games, and a sweep killed midway loses only
    its uncommitted batch, which the next sweep ends: each game is ended, rated
    and mailed once.  At most SWEEP_LIMIT games are looked at; the next sweep
    takes the rest.
    """
    now = now or timezone.now()
    due = Game.objects.filter(status=Game.Status.ACTIVE, deadline__lte=now)
    if not due.exists():
        return []
    # kept: due but left running (a player to act is on vacation), not claimed again
    ended, kept = [], []
    while len(ended) + len(kept) < SWEEP_LIMIT:
        games = _end_batch(due.exclude(pk__in=kept), now)
        ended += [game.pk for game in games if not game.is_active]
        kept += [game.pk for game in games if game.is_active]
        if len(games) < BATCH:
            break  # none left, or only games another transaction holds
    if ended:
        log.info("Ended %d game(s) on time: %s", len(ended), ended)
    return ended


def _end_batch(due, now: datetime) -> list[Game]:
    """Claim up to BATCH of the ``due`` games and end those overdue; the games claimed.

    Ratings and result e-mails are queued while the games end and written as the
    ``in_bulk`` blocks close, inside the transaction.
    """
    from games import notify, services  # they import this module

    with transaction.atomic(), ratings.in_bulk(), notify.in_bulk():
        claim = due.select_related("white", "black")  # for vacations; only games are locked
        games = list(
            claim.select_for_update(skip_locked=True, of=("self",)).order_by("deadline")[:BATCH]
        )
        ended = [game for game in games if services.expire_if_overdue(game, now)]
        # An upsert on the primary key updates the rows in one plain statement, where
        # bulk_update builds a CASE per row and field (slower than all the rest here).
        Game.objects.bulk_create(
            ended, update_conflicts=True, unique_fields=["id"], update_fields=GAME_FIELDS
        )
    return games


def games_to_remind(now: datetime):
    """Active games in the last fifth of their time for a move (not yet overdue)."""
    late = Q()
    for days in DAYS_PER_MOVE:
        share = timedelta(days=days) * (1 - REMINDER_AT)
        late |= Q(days_per_move=days, deadline__lte=now + share)
    return Game.objects.filter(late, status=Game.Status.ACTIVE, deadline__gt=now).select_related(
        "white", "black"
    )


def queue_reminders(now: datetime | None = None) -> int:
    """Write a reminder row for each player late in a move; once per deadline."""
    from games import notify

    now = now or timezone.now()
    count = 0
    for game in games_to_remind(now):
        if is_paused(game, now):
            continue
        count += notify.remind(game, now)
    return count
