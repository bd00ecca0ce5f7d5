"""A player following another, to watch their games (``/following/``).

Following asks nothing of the followed player and tells them nothing; they see
only their count of followers on their profile.  A block between the two
refuses a follow either way, and making one ends the follows between them
(``accounts.blocks.block``, in its transaction); closing an account ends its
follows both ways (``accounts.closing``).

A follow locks both players' rows (FOR NO KEY UPDATE, by id, in one order) as a
block and a closing do: a block or a closing made at the same moment either comes
first, and the follow is refused, or second, and deletes it.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import BooleanField, Count, Exists, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from . import blocks
from .models import Block, Follow, User

MAX_FOLLOWS = 500  # a player's follows: plenty to watch, and a bound on the page's query


class FollowError(Exception):
    """A follow refused; nothing changed."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def followed_ids(user) -> QuerySet:
    """The ids of the players ``user`` follows, as a subquery."""
    return Follow.objects.filter(follower=user).values("followed_id")


def following(user) -> list[User]:
    """The players ``user`` follows, by name (closed accounts left out: closing
    deletes their follows, the admin's switch does not)."""
    ids = followed_ids(user)
    return list(User.objects.filter(pk__in=ids, is_active=True).order_by("username"))


def with_follows(users: QuerySet, viewer) -> QuerySet:
    """``users`` with ``follower_count`` and ``followed_by_viewer`` (False for a
    visitor), in the same query: the profile's row costs nothing more."""
    counts = (
        Follow.objects.filter(followed=OuterRef("pk"))
        .order_by()
        .values("followed")
        .annotate(n=Count("pk"))
        .values("n")
    )
    users = users.annotate(follower_count=Coalesce(Subquery(counts), 0))
    if not viewer.is_authenticated:
        return users.annotate(followed_by_viewer=Value(False, output_field=BooleanField()))
    mine = Follow.objects.filter(follower=viewer, followed=OuterRef("pk"))
    return users.annotate(followed_by_viewer=Exists(mine))


@transaction.atomic
def follow(user, other, *, now: datetime | None = None) -> Follow:
    """``user`` follows ``other``; a second follow changes nothing.  FollowError:
    ``other`` is ``user``, a closed account, blocked by or blocking ``user``, or
    past the MAX_FOLLOWS of ``user``.  (A bot may be followed: its games are
    there to watch like anyone's.)"""
    if other.pk == user.pk:
        raise FollowError(_("You cannot follow yourself."))
    rows = blocks.lock_pair(user, other)
    if len(rows) < 2 or not all(row.is_active for row in rows):  # as locked: not closing
        raise FollowError(_("This account is closed."))
    if Block.objects.filter(blocks.between(user, other)).exists():
        raise FollowError(_("You cannot follow a player you have blocked or who has blocked you."))
    found = Follow.objects.filter(follower=user, followed=other).first()
    if found is not None:
        return found
    if Follow.objects.filter(follower=user).count() >= MAX_FOLLOWS:
        raise FollowError(
            _("You follow %(count)d players, the most there can be: unfollow one first.")
            % {"count": MAX_FOLLOWS}
        )
    return Follow.objects.create(follower=user, followed=other, created_at=now or timezone.now())


def unfollow(user, other) -> bool:
    """``user`` no longer follows ``other``; False if they did not."""
    deleted, _rows = Follow.objects.filter(follower=user, followed=other).delete()
    return deleted > 0
