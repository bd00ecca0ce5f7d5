"""A player blocking another: neither can start anything new with the other.

No challenge either way (a rematch offer is one), no accepting the other's open
challenge (neither the lobby nor the API lists it to them), no chat in their games
(games.services, games.chat check ``blocker_ids``).  Games already running go on: a
block never ends one.  Blocking cancels the open challenges between the two and ends
the follows between them, either way (``accounts.follows``), in the same transaction.

The blocker's and the blocked player's rows are locked (FOR NO KEY UPDATE, by id)
as a challenge or a chat message locks its author's: a challenge or a message sent
while a block is made is either refused or, made first, cancelled (a challenge) or
hidden from the blocker (a message); so is a follow, which locks both rows too.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Challenge

from .models import Block, Follow, User

MAX_BLOCKS = 500  # a player's blocks: enough for anyone, and a bound on each check


class BlockError(Exception):
    """A block or unblock refused; nothing changed."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def between(a, b) -> Q:
    """The blocks of ``a`` by ``b`` or of ``b`` by ``a``, as a filter on Block."""
    return Q(blocker=a, blocked=b) | Q(blocker=b, blocked=a)


def blocker_ids(a, b) -> set[int]:
    """The ids of those of ``a`` and ``b`` who blocked the other (none, one, or both)."""
    return set(Block.objects.filter(between(a, b)).values_list("blocker_id", flat=True))


def apart_from(user, field: str) -> Q:
    """A filter on the player ``field`` (e.g. a challenge's "challenger"): a player
    ``user`` has blocked or was blocked by, whose open challenges are not offered to
    ``user``."""
    return Q(**{f"{field}__in": Block.objects.filter(blocker=user).values("blocked_id")}) | Q(
        **{f"{field}__in": Block.objects.filter(blocked=user).values("blocker_id")}
    )


def lock_pair(a, b) -> list[User]:
    """Lock the rows of ``a`` and ``b`` (FOR NO KEY UPDATE) in the order of their ids,
    so that two such locks at once cannot deadlock; the rows as locked."""
    pair = User.objects.select_for_update(no_key=True).filter(pk__in=[a.pk, b.pk])
    return list(pair.order_by("pk"))


def blocked_by(user) -> list[User]:
    """The players ``user`` has blocked, by name."""
    ids = Block.objects.filter(blocker=user).values("blocked_id")
    return list(User.objects.filter(pk__in=ids).order_by("username"))


def can_be_blocked(user) -> bool:
    """Bots are never blocked: they play only the challenges sent to them and never chat."""
    return not user.is_bot


@transaction.atomic
def block(user, other, *, now: datetime | None = None) -> Block:
    """``user`` blocks ``other``: the open challenges between them are cancelled and
    their follows of each other deleted.  A second block of the same player changes
    nothing.  BlockError: ``other`` is ``user``, a bot, or past the MAX_BLOCKS of
    ``user``."""
    if other.pk == user.pk:
        raise BlockError(_("You cannot block yourself."))
    if not can_be_blocked(other) or not can_be_blocked(user):
        raise BlockError(_("Bots cannot be blocked: they only answer the challenges you send."))
    lock_pair(user, other)
    found = Block.objects.filter(blocker=user, blocked=other).first()
    if found is not None:
        return found
    if Block.objects.filter(blocker=user).count() >= MAX_BLOCKS:
        raise BlockError(
            _("You have blocked %(count)d players, the most there can be: unblock one first.")
            % {"count": MAX_BLOCKS}
        )
    made = Block.objects.create(blocker=user, blocked=other, created_at=now or timezone.now())
    directed = Q(challenger=user, opponent=other) | Q(challenger=other, opponent=user)
    Challenge.objects.filter(directed, status=Challenge.Status.OPEN).update(
        status=Challenge.Status.CANCELLED
    )
    Follow.objects.filter(
        Q(follower=user, followed=other) | Q(follower=other, followed=user)
    ).delete()
    return made


def unblock(user, other) -> bool:
    """``user`` no longer blocks ``other``; False if they did not.  (Challenges the
    block cancelled stay cancelled.)"""
    deleted, _rows = Block.objects.filter(blocker=user, blocked=other).delete()
    return deleted > 0
