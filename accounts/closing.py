"""A player closes their own account: what they have under way ends as if they had
ended each thing themselves, and they can no longer sign in.

Their games, moves, ratings and name stay, so that their opponents' records keep
their meaning (and nobody else can take the name); their profile is gone (the
site treats an inactive user as a closed account).  Staff can reopen it in the
admin; the player then sets a new password by e-mail.

One transaction, one timestamp.  The player's row is locked first, FOR NO KEY
UPDATE as a challenge, a vacation or a token locks it (the rows that refer to the
player, a move's or a turn e-mail's, do not wait for that).  Then each thing ends
through its own service, which takes its own row lock: the opponent's move and
the closing meet at the game's row, and whichever comes second sees the other's
result.  Challenges and tournaments come before the games, so that a game begun
from one meanwhile (a challenge accepted, a tournament filled) is listed with the
others and ended too.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games import services, tournaments
from games.models import Challenge, Entry, Game, Tournament

from .models import ApiToken, Follow, User


class ClosingError(Exception):
    """The account cannot be closed; nothing changed."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@transaction.atomic
def close_account(user, *, now: datetime | None = None) -> User:
    """Close ``user``'s account: each game in progress aborted where the abort rules
    allow it (``services.can_abort``), else resigned; open challenges cancelled
    (theirs) or declined (to them); tournaments not started left, or cancelled
    (theirs); API tokens revoked; their follows deleted, both ways (a follow locks
    the followed player's row too, so none made meanwhile is left); the password
    made unusable, which signs out every other session of theirs at its next
    request; ``is_active`` off.  The outbox mails no inactive player
    (``games.notify``): their pending e-mails are not sent.  The player's row,
    closed."""
    now = now or timezone.now()
    if user.is_bot:
        raise ClosingError(_("A bot’s account cannot be closed: it has no password to confirm."))
    player = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if not player.is_active:
        raise ClosingError(_("This account is closed already."))
    _end_challenges(player)
    _end_tournaments(player)
    _end_games(player, now)
    ApiToken.objects.filter(user=player).delete()
    Follow.objects.filter(Q(follower=player) | Q(followed=player)).delete()
    player.set_unusable_password()
    player.is_active = False
    player.save(update_fields=["password", "is_active"])
    return player


def _end_challenges(player) -> None:
    challenges = Challenge.objects.filter(
        Q(challenger=player) | Q(opponent=player), status=Challenge.Status.OPEN
    )
    for pk, challenger_id in challenges.order_by("pk").values_list("pk", "challenger_id"):
        answer = (
            services.cancel_challenge if challenger_id == player.pk else services.decline_challenge
        )
        try:
            answer(player, pk)
        except services.Conflict:
            pass  # accepted meanwhile: its game is ended with the others


def _end_tournaments(player) -> None:
    entries = Entry.objects.filter(player=player, tournament__status=Tournament.Status.OPEN)
    for pk, creator_id in entries.order_by("tournament_id").values_list(
        "tournament_id", "tournament__creator_id"
    ):
        end = tournaments.cancel if creator_id == player.pk else tournaments.leave
        try:
            end(player, pk)
        except (services.Conflict, services.NotFound):
            pass  # started meanwhile (its games are ended with the others), or cancelled


def _end_games(player, now: datetime) -> None:
    playing = Game.objects.filter(Q(white=player) | Q(black=player), status=Game.Status.ACTIVE)
    for pk in playing.order_by("pk").values_list("pk", flat=True):
        # Locked before the choice, so that an opponent's first move cannot come
        # between it and the abort.
        game = services.game_with_players(pk, lock=True)
        end = services.abort if services.can_abort(game) else services.resign
        try:
            end(player, pk, now=now)
        except services.Conflict:
            pass  # over already: ended meanwhile, or on time as the service opened it
