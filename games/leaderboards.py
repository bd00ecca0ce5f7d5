"""Leaderboards: the best established, recently active players of each game.

Bots are left out, as lichess does: a leaderboard ranks people. Their ratings
still show on their profiles.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games import glicko2
from games.models import Rating

TOP = 100
INDEX_TOP = 10
ACTIVE_DAYS = 30


def leaderboard(variant: str, limit: int = TOP, *, now: datetime | None = None) -> list[Rating]:
    """The top ``limit`` non-provisional players of ``variant`` rated in the last 30 days.

    One query, the players joined.
    """
    since = (now or timezone.now()) - timedelta(days=ACTIVE_DAYS)
    return list(
        Rating.objects.filter(
            variant=variant,
            deviation__lt=glicko2.PROVISIONAL_DEVIATION,
            last_rated_at__gte=since,
            user__is_active=True,
            user__is_bot=False,
        )
        .select_related("user")
        .order_by("-rating", "user__username")[:limit]
    )
