"""E-mail to players through an outbox.

Services call the hooks here (``turn_started``, ``game_ended``, ``challenge_made``,
and the tournaments' ``tournament_started``, ``tournament_finished``) inside their
transaction: each writes ``Notification`` rows with a unique key, so the same
event can never be written twice, and asks for delivery once the transaction
commits.  Delivery (``deliver_due``) runs from a Celery task, kicked
on commit and swept every minute by beat: if the broker is down when a move is
made, the move is saved all the same and the sweep sends the e-mail later.
The clock sweep ends games in batches inside ``in_bulk()``, which writes a
whole batch's rows together.

Delivery claims due rows under ``SELECT … FOR UPDATE SKIP LOCKED`` and gives them
a lease, sends after the claim has committed, then marks them sent: two senders
never take the same row.  Whether and how to send is decided at delivery, with
the player's current settings and presence.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections import defaultdict
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from smtplib import SMTPRecipientsRefused
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Case, DateTimeField, Max, Q, Value, When
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from games import clock, endings, presence, queries, store
from games.held import Held
from games.models import Challenge, Game, Notification, Tournament

log = logging.getLogger(__name__)

Kind = Notification.Kind
Outcome = Notification.Outcome

TURN_WINDOW = timedelta(minutes=15)  # at most one turn e-mail per player in this window
LEASE = timedelta(minutes=10)  # a claim older than this is taken to be a crashed sender's
BATCH = 200
DAILY_HOUR = 7  # the daily digest goes out after 7:00 in the player's time zone
UNSUBSCRIBE_SALT = "games.notify.unsubscribe"
KICK_EVERY = 1  # second: the changes committed within it share one delivery task


# -- hooks: called by services inside their transaction --------------------------------


def turn_started(game: Game, actors_before, now: datetime) -> None:
    """A turn e-mail for each player who has just come to act."""
    rows = []
    for side in game.to_act():
        if side in actors_before:
            continue  # already to act: they were told when their turn began
        user_id = game.white_id if side == "white" else game.black_id
        rows.append(_row(Kind.TURN, user_id, now, game=game, key=f"{game.ply}:{user_id}"))
    _write(rows)


def game_ended(game: Game, now: datetime) -> None:
    """A result e-mail to both players."""
    _write(
        [
            _row(Kind.RESULT, user_id, now, game=game, key=str(user_id))
            for user_id in (game.white_id, game.black_id)
        ]
    )


def challenge_made(challenge: Challenge, now: datetime) -> None:
    if challenge.opponent_id is not None:
        _write([_row(Kind.CHALLENGE, challenge.opponent_id, now, challenge=challenge)])


def tournament_started(tournament: Tournament, player_ids, starter_id, now: datetime) -> None:
    """A start e-mail to each entrant but the one who started it, who knows.  Their
    games' turn e-mails come apart, as for any new game."""
    _write(
        [
            _row(Kind.TOURNAMENT_START, user_id, now, tournament=tournament, key=str(user_id))
            for user_id in player_ids
            if user_id != starter_id
        ]
    )


def tournament_finished(tournament: Tournament, player_ids, now: datetime) -> None:
    """The final standings to each entrant."""
    _write(
        [
            _row(Kind.TOURNAMENT_END, user_id, now, tournament=tournament, key=str(user_id))
            for user_id in player_ids
        ]
    )


def remind(game: Game, now: datetime, sides=None) -> int:
    """A reminder for each of ``sides`` (default: every player to act), once per
    deadline; the rows written."""
    stamp = int(game.deadline.timestamp())
    rows = [
        _row(
            Kind.REMINDER,
            game.player(side).pk,
            now,
            game=game,
            key=f"{game.player(side).pk}:{stamp}",
        )
        for side in (game.to_act() if sides is None else sides)
    ]
    return _write(rows)


def _row(kind, user_id, now, *, game=None, challenge=None, tournament=None, key="") -> Notification:
    target = next(about for about in (game, challenge, tournament) if about is not None).pk
    return Notification(
        kind=kind,
        user_id=user_id,
        game=game,
        challenge=challenge,
        tournament=tournament,
        ply=game.ply if game is not None else 0,
        key=f"{kind}:{target}:{key}".rstrip(":"),
        created_at=now,
        due_at=now,
    )


def _write(rows: list[Notification]) -> int:
    """Write the rows not written yet; how many.  Inside ``in_bulk()``: hold them, how many held."""
    if _held.hold(rows):
        return len(rows)
    if not rows:
        return 0
    # The unique key settles a race between two writers of the same event.
    written = store.insert_new(rows, unique="key")
    if written:
        transaction.on_commit(_kick)  # a second kick in one transaction finds nothing to do
    return len(written)


# The clock sweep's batches: inside ``in_bulk()`` the hooks' rows wait, and are
# written as the block ends with one key check, one insert and one kick for the
# whole batch.  Nothing is written if the block raises.
_held = Held("held_notifications", _write)
in_bulk = _held.block


_next_kick = 0.0  # time.monotonic() from which this process queues a delivery task again


def _kick() -> None:
    """Ask a worker to deliver soon; if the broker is down, the beat sweep will.

    One task a KICK_EVERY per process, not one per move: a kick queues the task to
    run KICK_EVERY later and shuts this process's gate for as long, so a kick that
    finds the gate shut was committed before that task looks.  The gate is the
    process's own, not the cache's: it costs no round trip on every move.  Eager
    tasks (the tests) run at once, so there each kick runs one.
    """
    global _next_kick
    from games.tasks import deliver_notifications

    try:
        if deliver_notifications.app.conf.task_always_eager:
            deliver_notifications.apply_async(retry=False)
        elif (now := time.monotonic()) >= _next_kick:
            _next_kick = now + KICK_EVERY
            deliver_notifications.apply_async(countdown=KICK_EVERY, retry=False)
    except Exception:  # noqa: BLE001 - the change is saved; the sweep sends later
        log.warning("Could not queue notification delivery; the sweep will", exc_info=True)


# -- queues for the periodic tasks --------------------------------------------------------


def awaiting(user):
    """The active games where it is ``user``'s turn, the least time left first."""
    return queries.awaiting(user).select_related("white", "black")


def queue_daily_digests(now: datetime | None = None) -> int:
    """A daily row for each 'daily' player past DAILY_HOUR locally with games awaiting."""
    from django.contrib.auth import get_user_model

    now = now or timezone.now()
    rows = []
    users = get_user_model().objects.filter(notify="daily", is_active=True)
    for user in users:
        try:
            local = now.astimezone(ZoneInfo(user.time_zone))
        except (KeyError, ValueError):
            local = now
        if local.hour >= DAILY_HOUR and awaiting(user).exists():
            rows.append(
                Notification(
                    kind=Kind.DAILY,
                    user=user,
                    key=f"daily:{user.pk}:{local.date().isoformat()}",
                    created_at=now,
                    due_at=now,
                )
            )
    return _write(rows)


# -- delivery -----------------------------------------------------------------------------


def deliver_due(now: datetime | None = None) -> int:
    """Send every due notification; the number of e-mails sent."""
    now = now or timezone.now()
    sent = 0
    while True:
        claimed = _claim(now)
        if not claimed:
            return sent
        sent += _deliver(claimed, now)
        if len(claimed) < BATCH:
            return sent


def _claim(now: datetime) -> list[Notification]:
    """Due rows for this sender, leased to it: none of a player whose rows another
    sender holds, so that two senders never both mail one player inside the turn
    e-mails' window (the rows left wait for the next delivery)."""
    from django.contrib.auth import get_user_model

    with transaction.atomic():
        candidates = list(
            Notification.objects.select_for_update(skip_locked=True)
            .filter(sent_at__isnull=True, due_at__lte=now)
            .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
            .order_by("due_at", "pk")
            .values_list("pk", "user_id")[:BATCH]
        )
        users = sorted({user_id for _, user_id in candidates})
        # Claims of the same players wait for each other here (in id order: no
        # deadlock), so the second sees the first one's lease.  FOR NO KEY UPDATE:
        # a FOR UPDATE would also block the key-share locks that every insert
        # referring to the player takes (a move's, a turn row's), and a claim
        # waiting on a move that waits on a game locked by a third party waiting
        # on the player closed a cycle.
        list(
            get_user_model()
            .objects.select_for_update(no_key=True)
            .filter(pk__in=users)
            .order_by("pk")
            .values_list("pk")
        )
        busy = set(
            Notification.objects.filter(
                user_id__in=users, sent_at__isnull=True, claimed_until__gte=now
            ).values_list("user_id", flat=True)
        )
        ids = [pk for pk, user_id in candidates if user_id not in busy]
        Notification.objects.filter(pk__in=ids).update(claimed_until=now + LEASE)
    # Most rows are settled without an e-mail: players and challenges load only to send one.
    return list(
        Notification.objects.filter(pk__in=ids).select_related(
            "user", "game", "challenge", "tournament"
        )
    )


def _mark(rows, outcome: str, now: datetime) -> None:
    Notification.objects.filter(pk__in=[row.pk for row in rows], sent_at__isnull=True).update(
        sent_at=now, outcome=outcome, claimed_until=None
    )


def _release(rows, due_at: datetime | None = None) -> None:
    changes = {"claimed_until": None}
    if due_at is not None:
        changes["due_at"] = due_at
    Notification.objects.filter(pk__in=[row.pk for row in rows], sent_at__isnull=True).update(
        **changes
    )


def _deliver(rows: list[Notification], now: datetime) -> int:
    """Send the claimed rows, player by player; a player whose e-mail fails keeps theirs.

    Turn rows are the bulk of the outbox, and most need no e-mail (stale, the player
    looking, or inside the window since the last one): what they need is read for
    the whole batch at once, and they are marked or put off together at the end.
    """
    by_user = defaultdict(list)
    for row in rows:
        by_user[row.user_id].append(row)
    turns = [row for row in rows if row.kind == Kind.TURN]
    batch = _TurnBatch(
        last_sent=_last_turn_emails({row.user_id for row in turns}),
        present=presence.present_among({(row.game_id, row.user_id) for row in turns}),
    )
    sent = 0
    failure = None
    for user_rows in by_user.values():
        user = user_rows[0].user
        if user.is_bot or not user.is_active or not user.email:
            batch.settle(user_rows, Outcome.OFF)  # no one reads these
            continue
        try:
            # Everything of a player's e-mails (the time left, the result, the subject)
            # is worked out in their language and time zone, not the sender's.
            with _as_read_by(user):
                user_turns = [row for row in user_rows if row.kind == Kind.TURN]
                if user_turns:
                    sent += _deliver_turns(user_turns, now, batch)
                for row in user_rows:
                    if row.kind != Kind.TURN:
                        sent += _deliver_one(row, now)
        except SMTPRecipientsRefused:
            # A permanent refusal of the address: trying again every minute would
            # never get through.
            log.warning("the mail server refused user %s's address", user.pk)
            batch.settle(user_rows, Outcome.REFUSED)
        except Exception as error:
            _release(user_rows)  # the retry, or the next sweep, takes them at once
            failure = failure or error
    batch.write(now)
    if failure is not None:
        raise failure  # the task retries with backoff
    return sent


class _TurnBatch:
    """What a batch's turn rows need read once, and their changes written once.

    Only rows that sent nothing wait here: a sent e-mail is marked at once, so a
    crash later in the batch cannot send it twice.
    """

    def __init__(self, last_sent: dict, present: set):
        self.last_sent = last_sent  # user id -> their last turn e-mail's time
        self.present = present  # (game id, user id) pairs being looked at now
        self.settled = defaultdict(list)  # outcome -> rows
        self.put_off = defaultdict(list)  # new due time -> rows

    def settle(self, rows, outcome: str) -> None:
        self.settled[outcome] += rows

    def write(self, now: datetime) -> None:
        for outcome, rows in self.settled.items():
            _mark(rows, outcome, now)
        if self.put_off:
            whens = [
                When(pk__in=[row.pk for row in rows], then=Value(due))
                for due, rows in self.put_off.items()
            ]
            ids = [row.pk for rows in self.put_off.values() for row in rows]
            Notification.objects.filter(pk__in=ids, sent_at__isnull=True).update(
                claimed_until=None, due_at=Case(*whens, output_field=DateTimeField())
            )


def _last_turn_emails(user_ids: set) -> dict:
    """Each player's last turn e-mail (single or digest), by user id."""
    if not user_ids:
        return {}
    rows = (
        Notification.objects.filter(
            user_id__in=user_ids, kind=Kind.TURN, outcome__in=[Outcome.SENT, Outcome.DIGEST]
        )
        .values("user_id")
        .annotate(last=Max("sent_at"))
        .order_by()
    )
    return {row["user_id"]: row["last"] for row in rows}


def _is_awaiting(game: Game | None, user) -> bool:
    return game is not None and game.is_active and game.side_of(user) in game.to_act()


def _deliver_turns(rows: list[Notification], now: datetime, batch: _TurnBatch) -> int:
    user = rows[0].user
    if user.notify != user.Notify.PER_TURN:
        batch.settle(rows, Outcome.OFF)
        return 0
    live = {}
    for row in rows:
        if not _is_awaiting(row.game, user):
            batch.settle([row], Outcome.STALE)
        elif (row.game_id, user.pk) in batch.present:
            batch.settle([row], Outcome.PRESENT)
        else:
            live.setdefault(row.game_id, []).append(row)
    if not live:
        return 0
    last = batch.last_sent.get(user.pk)
    waiting = [row for game_rows in live.values() for row in game_rows]
    if last is not None and last > now - TURN_WINDOW:
        batch.put_off[last + TURN_WINDOW] += waiting  # into the digest at the window's end
        return 0
    games = [game_rows[-1].game for game_rows in live.values()]
    if len(games) == 1:
        game = games[0]
        context = {
            "game": game,
            "item": _game_item(game, user, now),
            "started": _nobody_moved(game, max(row.ply for row in waiting)),
        }
        _send(user, "turn", context, waiting)
        _mark(waiting, Outcome.SENT, now)
    else:
        items = sorted((_game_item(game, user, now) for game in games), key=_by_time_left)
        _send(user, "digest", {"items": items, "count": len(items)}, waiting)
        _mark(waiting, Outcome.DIGEST, now)
    return 1


def _deliver_one(row: Notification, now: datetime) -> int:
    user = row.user
    if user.notify == user.Notify.NONE:
        _mark([row], Outcome.OFF, now)
        return 0
    if row.kind == Kind.REMINDER:
        return _deliver_reminder(row, now)
    if row.kind == Kind.RESULT:
        # Both players are told, whether or not they are looking at the game.
        context = {
            "game": row.game,
            "item": _game_item(row.game, user, now),
            "result": _result(row.game),
        }
        _send(user, "result", context, [row])
    elif row.kind == Kind.CHALLENGE:
        challenge = row.challenge
        if challenge is None or challenge.status != Challenge.Status.OPEN:
            _mark([row], Outcome.STALE, now)
            return 0
        _send(
            user,
            "challenge",
            {"challenge": challenge, "url": _url(f"/challenge/{challenge.token}/")},
            [row],
        )
    elif row.kind == Kind.DAILY:
        if user.notify != user.Notify.DAILY:
            _mark([row], Outcome.OFF, now)
            return 0
        items = [_game_item(game, user, now) for game in awaiting(user)]
        if not items:
            _mark([row], Outcome.STALE, now)
            return 0
        items.sort(key=_by_time_left)
        _send(user, "daily", {"items": items, "count": len(items)}, [row])
    elif row.kind == Kind.TOURNAMENT_START:
        # A tournament's start and end are rare news, not turns: sent at once to
        # daily-summary players too, as a result is.
        if row.tournament.status != Tournament.Status.RUNNING:
            _mark([row], Outcome.STALE, now)  # over already: its start is no news
            return 0
        _send(user, "tournament-started", _tournament_started(row.tournament, user), [row])
    elif row.kind == Kind.TOURNAMENT_END:
        _send(user, "tournament-finished", _tournament_finished(row.tournament, user), [row])
    _mark([row], Outcome.SENT, now)
    return 1


def _deliver_reminder(row: Notification, now: datetime) -> int:
    """A warning before a loss on time: for daily-summary players too (a summary a
    day can come too late for a game of one day a move); never with e-mails off."""
    user, game = row.user, row.game
    left = clock.time_left(game, now) if _is_awaiting(game, user) else None
    share = timedelta(days=game.days_per_move or 0) * (1 - clock.REMINDER_AT)
    if left is None or left > share or left <= timedelta(0):
        _mark([row], Outcome.STALE, now)  # moved since, or a new deadline, or already over
        return 0
    if presence.is_present(game.pk, user.pk):
        _release([row], due_at=now + TURN_WINDOW)  # looking now: ask again later
        return 0
    _send(user, "reminder", {"game": game, "item": _game_item(game, user, now)}, [row])
    _mark([row], Outcome.SENT, now)
    return 1


# -- the e-mails ----------------------------------------------------------------------------


def game_url(game: Game) -> str:
    return _url(f"/game/{game.pk}/")


def _url(path: str) -> str:
    return settings.SITE_URL + path


def _game_item(game: Game, user, now: datetime) -> dict:
    side = game.side_of(user)
    other = "black" if side == "white" else "white"
    opponent = game.player(other)
    # The opponent's last move the player may see (never a secret one).
    last = game.moves.filter(side=other, hidden=False).order_by("-ply").first()
    return {
        "game": game,
        "side": side,
        "opponent": opponent,
        "last_move": last.text if last is not None else "",
        "time_left": clock.time_left_text(game, now),
        "left": clock.time_left(game, now),
        "url": game_url(game),
    }


def _tournament_url(tournament: Tournament) -> str:
    return _url(reverse("tournament", args=[tournament.pk]))


def _tournament_started(tournament: Tournament, user) -> dict:
    games = tournament.games.filter(Q(white=user) | Q(black=user)).count()
    return {"tournament": tournament, "games": games, "url": _tournament_url(tournament)}


def _tournament_finished(tournament: Tournament, user) -> dict:
    """The page's standings (``tournaments.standings``), the player's own line apart."""
    from games import tournaments  # it imports this module

    table = [
        {
            "rank": row.rank,
            "player": row.player,
            "points": tournaments.points_text(row.points),
            "sb": tournaments.points_text(row.sonneborn_berger),
            "is_me": row.player.pk == user.pk,
        }
        for row in tournaments.standings(tournament)
    ]
    return {
        "tournament": tournament,
        "mine": next(line for line in table if line["is_me"]),
        "table": table,
        "url": _tournament_url(tournament),
    }


def _nobody_moved(game: Game, ply: int) -> bool:
    """True when no player had made a move by ``ply`` (chance moves aside): a turn
    that came with the game's start, not with the opponent's move."""
    return not game.moves.filter(ply__lte=ply).exclude(side="chance").exists()


def _result(game: Game) -> str:
    """How the game ended, in the current language (never the stored English
    ``result_text``), without its full stop: the e-mail goes on with who won."""
    return str(endings.result_words(game)).removesuffix(".")


def _by_time_left(item: dict):
    left = item["left"]
    return (left is None, left or timedelta(0))


def unsubscribe_token(user) -> str:
    # No timestamp: an unsubscribe link works for as long as the e-mail is kept.
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign_object(user.pk)


def user_from_token(token: str):
    """The user a token names, or None for a forged or unknown one."""
    from django.contrib.auth import get_user_model

    try:
        pk = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign_object(token)
    except signing.BadSignature:
        return None
    return get_user_model().objects.filter(pk=pk).first()


def _message_id(rows: list[Notification]) -> str:
    """The same at every try to send the e-mail of ``rows``.  Should a worker die after
    the mail server took the e-mail but before the rows were marked, the resend
    carries the first one's Message-ID, by which mail systems drop duplicates."""
    ids = ",".join(str(pk) for pk in sorted(row.pk for row in rows))
    host = urlsplit(settings.SITE_URL).hostname or "localhost"
    return f"<{hashlib.sha256(ids.encode()).hexdigest()[:32]}@{host}>"


@contextmanager
def _as_read_by(user):
    """The player's language (the one they last used the site in) and time zone."""
    try:
        zone = ZoneInfo(user.time_zone)
    except (KeyError, ValueError):  # an unknown zone must not block the player's e-mail
        zone = UTC
    languages = dict(settings.LANGUAGES)
    language = user.language if user.language in languages else settings.LANGUAGE_CODE
    with translation.override(language), timezone.override(zone):
        yield


def _send(user, template: str, context: dict, rows: list[Notification]) -> None:
    unsubscribe = _url(reverse("unsubscribe", args=[unsubscribe_token(user)]))
    context = {
        **context,
        "user": user,
        "site_name": settings.SITE_NAME,
        "site_url": settings.SITE_URL,
        "settings_url": _url(reverse("settings")),
        "unsubscribe_url": unsubscribe,
    }
    # In the player's language and time zone: see _as_read_by, in _deliver.
    subject = render_to_string(f"emails/{template}-subject.txt", context)
    text = render_to_string(f"emails/{template}-body.txt", context)
    html = render_to_string(f"emails/{template}-body.html", context)
    message = EmailMultiAlternatives(
        re.sub(r"\s+", " ", subject).strip(),
        text,
        to=[user.email],
        headers={
            "Message-ID": _message_id(rows),
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(html, "text/html")
    message.send()
