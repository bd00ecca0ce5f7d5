"""Round-robin tournaments: make, join, leave, cancel, start; the standings.

A tournament gathers 3 to ``max_players`` entrants on one set of terms (a
challenge's: game, options, days per move, rated).  When its creator starts it,
or when it fills up, every game is made at once: each pair plays twice, once with
each colour (a double round robin), through ``services.new_game``, so that each
game is an ordinary one (its moves, clock, e-mails, ratings, API).  It is over
when its last game ends (``game_ended``, from ``services._finish``).  Its entrants
are told by e-mail when it starts (but the one who started it) and when it is
over (the final standings), through the outbox (``notify``).

Each action is one transaction: the acting player's row is locked first (the cap
of tournaments per player, and a block made meanwhile, are then seen), then the
tournament's row, under which its entries and status are checked and changed.
Two players taking the last place at once are served one after the other: the
second finds the tournament full, or started.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from itertools import permutations

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Block
from games import notify, services
from games.held import Held
from games.models import Entry, Game, Tournament
from games.models.tournaments import MAX_PLAYERS, MIN_PLAYERS

GameError, NotFound, Forbidden, Conflict, TooMany = (
    services.GameError,
    services.NotFound,
    services.Forbidden,
    services.Conflict,
    services.TooMany,
)

MAX_TOURNAMENTS = 5  # a player's tournaments open or running at once
ON_PROFILE = 20  # a player's latest tournaments that their profile lists
NAME_MAX_LENGTH = Tournament._meta.get_field("name").max_length
UNDER_WAY = (Tournament.Status.OPEN, Tournament.Status.RUNNING)


# -- the actions ------------------------------------------------------------------------


@transaction.atomic
def create_tournament(
    user,
    *,
    name: str,
    variant: str,
    options: Mapping[str, str] | None = None,
    days_per_move: int | None = 3,
    rated: bool = True,
    max_players: int = 6,
    now: datetime | None = None,
) -> Tournament:
    """An open tournament on a challenge's terms (checked as a challenge's are), its
    creator its first entrant."""
    now = now or timezone.now()
    name = " ".join(str(name or "").split())
    if not name:
        raise GameError(_("A tournament needs a name."))
    if len(name) > NAME_MAX_LENGTH:
        raise GameError(
            _("A tournament’s name has at most %(count)s characters.") % {"count": NAME_MAX_LENGTH}
        )
    if type(max_players) is not int or not MIN_PLAYERS <= max_players <= MAX_PLAYERS:
        raise GameError(
            _("A tournament has room for %(min)s to %(max)s players.")
            % {"min": MIN_PLAYERS, "max": MAX_PLAYERS}
        )
    options, rated = services.game_terms(variant, options, days_per_move, rated)
    _check_player(user)
    tournament = Tournament.objects.create(
        name=name,
        creator=user,
        variant=variant,
        options=options,
        days_per_move=days_per_move,
        rated=rated,
        max_players=max_players,
        created_at=now,
    )
    Entry.objects.create(tournament=tournament, player=user, joined_at=now)
    return tournament


@transaction.atomic
def join(user, tournament_id, *, now: datetime | None = None) -> Tournament:
    """``user`` takes a place; the last place starts the tournament."""
    now = now or timezone.now()
    _check_player(user)
    tournament = _locked(tournament_id)
    if tournament.status != Tournament.Status.OPEN:
        raise Conflict(_("This tournament has started: it takes no more players."))
    entrants = entrants_of(tournament)
    if any(player.pk == user.pk for player in entrants):
        raise Conflict(_("You are already playing in this tournament."))
    if len(entrants) >= tournament.max_players:
        raise Conflict(_("This tournament is full."))
    _check_not_blocked(user, entrants)
    Entry.objects.create(tournament=tournament, player=user, joined_at=now)
    if len(entrants) + 1 == tournament.max_players:
        _begin(tournament, [*entrants, user], user, now)
    return tournament


@transaction.atomic
def leave(user, tournament_id) -> Tournament:
    """``user`` gives up their place, before the start; not the creator (who cancels)."""
    tournament = _locked(tournament_id)
    if tournament.creator_id == user.pk:
        raise Forbidden(_("You made this tournament: cancel it instead of leaving it."))
    if tournament.status != Tournament.Status.OPEN:
        raise Conflict(_("This tournament has started: its players can no longer leave."))
    deleted, _rows = Entry.objects.filter(tournament=tournament, player_id=user.pk).delete()
    if not deleted:
        raise Conflict(_("You are not playing in this tournament."))
    return tournament


@transaction.atomic
def cancel(user, tournament_id) -> None:
    """The creator calls off an open tournament: it is deleted with its entries (it
    has no game yet, and nothing was sent to anyone)."""
    tournament = _locked(tournament_id)
    if tournament.creator_id != user.pk:
        raise Forbidden(_("Only the tournament’s creator can cancel it."))
    if tournament.status != Tournament.Status.OPEN:
        raise Conflict(_("This tournament has started: it can no longer be cancelled."))
    tournament.delete()


@transaction.atomic
def start(user, tournament_id, *, now: datetime | None = None) -> Tournament:
    """The creator starts an open tournament of at least MIN_PLAYERS entrants."""
    now = now or timezone.now()
    tournament = _locked(tournament_id)
    if tournament.creator_id != user.pk:
        raise Forbidden(_("Only the tournament’s creator can start it."))
    if tournament.status != Tournament.Status.OPEN:
        raise Conflict(_("This tournament has started already."))
    entrants = entrants_of(tournament)
    if len(entrants) < MIN_PLAYERS:
        raise Conflict(
            _("A tournament starts with at least %(count)s players.") % {"count": MIN_PLAYERS}
        )
    _begin(tournament, entrants, user, now)
    return tournament


def _begin(tournament: Tournament, entrants: list, starter, now: datetime) -> None:
    """Make every game of the double round robin: each ordered pair (white, black)
    once.  Each game writes the turn e-mail of the player to act; a player with
    several of them gets one digest (notify._deliver_turns), the rows being due
    together.  The entrants but ``starter`` get the news of the start besides."""
    for white, black in permutations(entrants, 2):
        services.new_game(
            white,
            black,
            tournament.variant,
            tournament.options,
            tournament.rated,
            tournament.days_per_move,
            now,
            tournament=tournament,
        )
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament.save(update_fields=["status", "started_at"])
    notify.tournament_started(tournament, [player.pk for player in entrants], starter.pk, now)


# -- checks ------------------------------------------------------------------------------


def _locked(tournament_id) -> Tournament:
    pk = services.row_key(tournament_id)
    found = None
    if pk:
        found = Tournament.objects.select_for_update().filter(pk=pk).first()
    if found is None:
        raise NotFound(_("No such tournament."))
    return found


def entrants_of(tournament: Tournament) -> list:
    """The players, in the order they joined."""
    return [entry.player for entry in tournament.entries.select_related("player")]


def _check_player(user) -> None:
    """A person (no bot), with a place among their MAX_TOURNAMENTS.  Their row is
    locked: two joins at once count each other, a block made meanwhile waits, and an
    account closed meanwhile is refused."""
    if user.is_bot:
        raise Forbidden(_("Bots do not play in tournaments."))
    services.lock_active(user)
    count = Entry.objects.filter(player_id=user.pk, tournament__status__in=UNDER_WAY).count()
    if count >= MAX_TOURNAMENTS:
        raise TooMany(
            _(
                "You are playing in %(count)s tournaments that are open or running, the "
                "most there can be: wait for one to end."
            )
            % {"count": MAX_TOURNAMENTS}
        )


def _check_not_blocked(user, entrants: list) -> None:
    """Forbidden if ``user`` has blocked an entrant or been blocked by one (the rule of
    challenges, services._check_not_blocked, against every entrant in one query)."""
    ids = [player.pk for player in entrants]
    found = (
        Block.objects.filter(
            Q(blocker=user, blocked_id__in=ids) | Q(blocker_id__in=ids, blocked=user)
        )
        .order_by("pk")
        .first()
    )
    if found is None:
        return
    if found.blocker_id == user.pk:
        other = next(p for p in entrants if p.pk == found.blocked_id)
        raise Forbidden(
            _(
                "You have blocked %(name)s, who plays in this tournament: unblock them on "
                "their profile first."
            )
            % {"name": other.username}
        )
    other = next(p for p in entrants if p.pk == found.blocker_id)
    raise Forbidden(
        _("%(name)s, who plays in this tournament, has blocked you: you cannot join it.")
        % {"name": other.username}
    )


# -- the end --------------------------------------------------------------------------------


def game_ended(game: Game, now: datetime) -> None:
    """Called by ``services._finish`` for a tournament's game, under its lock, before
    the game's row is saved.  The tournament's row is locked before its other games
    are counted: of two last games ending at once, the second to get the lock sees
    the first one ended.  In the clock sweep's batches (``in_bulk``) the check waits
    until the batch's games are saved."""
    if _held.hold([(game.tournament_id, now)]):
        return
    _finish_if_over(game.tournament_id, now, ending=game.pk)


def _finish_if_over(tournament_id: int, now: datetime, ending: int | None = None) -> bool:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None or tournament.status != Tournament.Status.RUNNING:
        return False
    playing = Game.objects.filter(tournament_id=tournament_id, status=Game.Status.ACTIVE)
    if ending is not None:
        playing = playing.exclude(pk=ending)
    if playing.exists():
        return False
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    # Under the lock, once: two last games ending at once write the e-mails once.
    players = list(tournament.entries.values_list("player_id", flat=True))
    notify.tournament_finished(tournament, players, now)
    return True


def _finish_held(items: list) -> None:
    latest: dict[int, datetime] = {}
    for tournament_id, now in items:
        latest[tournament_id] = max(now, latest.get(tournament_id, now))
    for tournament_id in sorted(latest):  # one order: no deadlock between two sweeps
        _finish_if_over(tournament_id, latest[tournament_id])


_held = Held("held_tournaments", _finish_held)
in_bulk = _held.block


# -- standings ---------------------------------------------------------------------------------


@dataclass
class Standing:
    player: object
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: Fraction = Fraction(0)
    sonneborn_berger: Fraction = Fraction(0)
    rank: int = 0
    results: dict = field(default_factory=dict)  # opponent id -> [games against them]


def standings(tournament: Tournament, entrants: list | None = None, games=None) -> list[Standing]:
    """Each entrant's games played, wins, draws, losses and points (1, ½, 0), and the
    Sonneborn-Berger tiebreak (the points of the opponents beaten, plus half the
    points of those drawn with, once per game); sorted by points, then
    Sonneborn-Berger, then name, those equal on both sharing a place (1, 1, 3).  An
    aborted game, or one still being played, counts as not played.  Two queries
    (none for what the caller passes)."""
    if entrants is None:
        entrants = entrants_of(tournament)
    if games is None:
        games = list(tournament.games.all())
    rows = {player.pk: Standing(player) for player in entrants}
    scored = []  # (player id, opponent id, points) per player per game over
    for game in games:
        if game.status != Game.Status.FINISHED:
            continue
        for me, other, side in (
            (game.white_id, game.black_id, "white"),
            (game.black_id, game.white_id, "black"),
        ):
            row = rows.get(me)
            if row is None:
                continue
            points = Fraction(1) if game.winner == side else Fraction(0 if game.winner else 1, 2)
            row.played += 1
            row.points += points
            if points == 1:
                row.wins += 1
            elif points:
                row.draws += 1
            else:
                row.losses += 1
            scored.append((me, other, points))
    for me, other, points in scored:
        if other in rows:
            rows[me].sonneborn_berger += points * rows[other].points
    ordered = sorted(
        rows.values(),
        key=lambda row: (-row.points, -row.sonneborn_berger, row.player.username.lower()),
    )
    for number, row in enumerate(ordered, 1):
        row.rank = number
        above = ordered[number - 2] if number > 1 else None
        if above and (above.points, above.sonneborn_berger) == (row.points, row.sonneborn_berger):
            row.rank = above.rank
    return ordered


def points_text(value: Fraction) -> str:
    """1, ½, 2½: a score as a crosstable writes it."""
    whole, half = divmod(value * 2, 2)
    whole = int(whole)
    if not half:
        return str(whole)
    return "½" if whole == 0 else f"{whole}½"


# -- reading ----------------------------------------------------------------------------------


def may_join(user, tournament: Tournament, entrants: list) -> bool:
    """Whether the page offers ``user`` to join (the service checks again)."""
    return (
        user.is_authenticated
        and not user.is_bot
        and tournament.status == Tournament.Status.OPEN
        and len(entrants) < tournament.max_players
        and all(player.pk != user.pk for player in entrants)
    )


def lists(now: datetime | None = None, finished: int = 20) -> dict[str, list[Tournament]]:
    """The tournaments page's lists: open ones, running ones, the latest finished;
    each tournament with its creator and ``entrant_count``."""
    base = Tournament.objects.select_related("creator").annotate(entrant_count=Count("entries"))
    return {
        "open": list(base.filter(status=Tournament.Status.OPEN).order_by("-created_at")[:100]),
        "running": list(
            base.filter(status=Tournament.Status.RUNNING).order_by("-started_at")[:100]
        ),
        "finished": list(
            base.filter(status=Tournament.Status.FINISHED).order_by("-finished_at")[:finished]
        ),
    }


def of_player(player, limit: int = ON_PROFILE) -> list[Tournament]:
    """``player``'s latest tournaments, open, running or finished, the latest made
    first, each with its creator and ``entrant_count``: one query."""
    joined = Entry.objects.filter(player=player).values("tournament")
    found = Tournament.objects.filter(pk__in=joined).select_related("creator")
    return list(found.annotate(entrant_count=Count("entries")).order_by("-created_at")[:limit])
