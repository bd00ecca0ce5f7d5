"""Correspondence clocks: time left, the sweep that ends overdue games, reminders, vacations.

Clocks run by periodic sweeps over indexed due rows, never by per-game timers.

Vacation pauses a player's clocks, not their opponents'.  A game has one
deadline, and it is not moved while the player is away: the expiry check treats
a game as paused when every player still to act is on a vacation that began
before the deadline.  When the vacation ends (by the player, or by the sweep at
``vacation_until``), each deadline of theirs is pushed back by the part of the
vacation that overlapped their turn, so a turn that arrived mid-vacation gets
exactly its full time.

Where both players act at once (Shuuro's recruitment, timed as one decision
with one deadline), that deadline is the opponent's too, so one player's
vacation must neither stop nor extend it while the opponent still has to act:

* the game is paused only while every player still to act is on vacation;
* past the deadline, the players still to act and not on vacation are the late
  ones (``late_sides``), and the game ends as ``services.expire_if_overdue``
  says (in the recruitment, where no one has made a move the other has seen,
  it is aborted); a player on vacation never loses on time while away;
* a vacation's end pushes the deadline back only by the time the game was
  paused: not at all while the opponent is still to act and not on vacation,
  and only from the opponent's own vacation's start while they are away too.
  Once the opponent has finished, the deadline is the vacationer's alone, and
  it is pushed back by the whole part of the vacation within the phase.

Vacation days: up to VACATION_DAYS_PER_YEAR a calendar year (UTC).  A vacation
is charged to each year by the time it takes in that year, a day begun counting
as a whole day (``_days_by_year``): one over New Year is charged in part to each
year.  ``User.vacation_days_used`` holds the days charged to ``vacation_year``;
during a vacation over New Year the next year's part is read from
``vacation_started_at`` and ``vacation_until``, and when it ends there, that
year becomes ``vacation_year``.  A vacation whose part in this year is more
than the days left this year is refused, saying how many are left, not cut
short: a player who asked for a number of days and got fewer could lose games
on time.  Its part in the next year is at most the limit, charged to that year.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

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
DAY = timedelta(days=1)
VACATION_FIELDS = ["vacation_started_at", "vacation_until", "vacation_days_used", "vacation_year"]
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


def _excused(game: Game, side: str, now: datetime) -> bool:
    """``side`` is on a vacation that began before the game's deadline (and by ``now``)."""
    started = game.player(side).vacation_started_at
    return started is not None and started <= now and game.deadline > started


def late_sides(game: Game, now: datetime) -> list[str]:
    """The sides to act whose clock runs: those not excused by a vacation.

    Past the deadline these are the late ones; while both players act at once,
    one player's vacation does not excuse the other.
    """
    if game.deadline is None:
        return []
    return [side for side in game.to_act() if not _excused(game, side, now)]


def is_paused(game: Game, now: datetime) -> bool:
    """True when every player still to act is on a vacation that began before the deadline.

    While both players act at once (Shuuro's recruitment), one player's vacation
    does not pause the game for the other, who still has to act by the deadline.
    """
    if game.deadline is None or not game.to_act():
        return False
    return not late_sides(game, now)


def _year(moment: datetime) -> int:
    return moment.astimezone(UTC).year


def _days_by_year(start: datetime, end: datetime) -> dict[int, int]:
    """The days of a vacation from ``start`` to ``end`` charged to each calendar year
    (UTC): the time it takes in that year, a day begun counting as a whole day.

    20 December 2026 noon to 19 January 2027 noon: 12 days in 2026 (11.5 taken),
    19 in 2027 (18.5 taken).
    """
    charged = {}
    while start < end:
        year = _year(start)
        new_year = datetime(year + 1, 1, 1, tzinfo=UTC)
        taken = min(end, new_year) - start
        charged[year] = -(-taken // DAY)  # rounded up
        start = new_year
    return charged


def _days_used(user, year: int) -> int:
    """Days of vacation charged to ``year``, the vacation under way included."""
    used = user.vacation_days_used if user.vacation_year == year else 0
    started, until = user.vacation_started_at, user.vacation_until
    if started is not None and until is not None and year != _year(started):
        # The part of a vacation under way in its first year is in vacation_days_used.
        used += _days_by_year(started, until).get(year, 0)
    return used


def vacation_days_left(user, now: datetime | None = None) -> int:
    """Days of vacation left in the calendar year (UTC) of ``now``."""
    year = _year(now or timezone.now())
    return max(VACATION_DAYS_PER_YEAR - _days_used(user, year), 0)


def _locked_player(user):
    """The player's row, locked against another vacation change: FOR NO KEY UPDATE,
    which the rows that refer to the player (a move, a turn e-mail) do not wait for.
    With FOR UPDATE, ending a vacation (which then locks the player's games) and a
    move in one of those games (which writes the player a turn row) could deadlock."""
    return get_user_model().objects.select_for_update(no_key=True).get(pk=user.pk)


def start_vacation(user, days: int, *, now: datetime | None = None):
    """Start a vacation of ``days`` days at ``now``.

    Refused (VacationError), not cut short, when its part in this calendar year
    (``_days_by_year``) is more than the days left this year.  Its part in the
    next year cannot take that year over VACATION_DAYS_PER_YEAR: a vacation is
    at most that long, and no day is charged to a year before it begins (every
    earlier vacation has ended by now).
    """
    now = now or timezone.now()
    with transaction.atomic():
        user = _locked_player(user)
        if user.vacation_started_at is not None:
            raise VacationError(_("You are already on vacation."))
        first, left = _year(now), vacation_days_left(user, now)
        until = now + timedelta(days=days) if 1 <= days <= VACATION_DAYS_PER_YEAR else now
        charged = _days_by_year(now, until)
        if not 1 <= charged.get(first, 0) <= left:
            raise VacationError(
                ngettext(
                    "You have %(count)d day of vacation left this year.",
                    "You have %(count)d days of vacation left this year.",
                    left,
                )
                % {"count": left}
            )
        if user.vacation_year != first:
            user.vacation_year, user.vacation_days_used = first, 0
        user.vacation_days_used += charged[first]
        user.vacation_started_at = now
        user.vacation_until = until
        user.save(update_fields=VACATION_FIELDS)
    return user


def _paused_since(game: Game, side: str, started: datetime, end: datetime) -> datetime | None:
    """Since when ``game`` has been paused for ``side``, on vacation from ``started``
    to ``end``: from the later of the vacation's start and the turn's, or, while
    the opponent still has to act too, of their vacation's start.  None when the
    opponent still to act is not on vacation (the deadline is theirs too)."""
    since = max(started, game.deadline - timedelta(days=game.days_per_move or 0))
    for other in game.to_act():
        if other == side:
            continue
        if not _excused(game, other, end):
            return None
        since = max(since, game.player(other).vacation_started_at)
    return since


def end_vacation(user, *, now: datetime | None = None):
    """End the vacation at ``now`` (or its planned end, if earlier) and extend deadlines.

    Each game where the player is still to act has its deadline pushed back by
    the time it was paused (``_paused_since``).  The days charged become those
    taken, each year's part rounded up to whole days; the rest are given back.
    """
    now = now or timezone.now()
    with transaction.atomic():
        user = _locked_player(user)
        started, until = user.vacation_started_at, user.vacation_until
        if started is None:
            return user
        end = min(now, until) if until else now
        games = (
            Game.objects.select_for_update(of=("self",))
            .select_related("white", "black")
            .filter(
                Q(white=user, white_to_act=True) | Q(black=user, black_to_act=True),
                status=Game.Status.ACTIVE,
                deadline__gt=started,
            )
        )
        for game in games:
            since = _paused_since(game, game.side_of(user), started, end)
            if since is not None and end > since:
                game.deadline += end - since
                game.version += 1
                game.save(update_fields=["deadline", "version"])
        first, taken = _year(started), _days_by_year(started, end)
        if user.vacation_year == first:
            planned = _days_by_year(started, until) if until else taken
            user.vacation_days_used += taken.get(first, 0) - planned.get(first, 0)
        last = max(taken, default=first)
        if last != first:  # it ended in a later year: that year's part is what counts now
            user.vacation_year, user.vacation_days_used = last, taken[last]
        user.vacation_days_used = max(user.vacation_days_used, 0)
        user.vacation_started_at = user.vacation_until = None
        user.save(update_fields=VACATION_FIELDS)
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
    # kept: due but left running (every player to act is on vacation), not claimed again
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
    from games import notify, services, tournaments  # they import this module

    with transaction.atomic(), tournaments.in_bulk(), ratings.in_bulk(), notify.in_bulk():
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
        # not to a player on vacation (while both act at once, the other still acts)
        count += notify.remind(game, now, late_sides(game, now))
    return count
