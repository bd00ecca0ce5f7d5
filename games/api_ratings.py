"""Ratings as the API shows them: every game, the starting values where none yet."""

from __future__ import annotations

from games.models import Variant
from games.models.ratings import Rating


def player_ratings(user) -> dict[str, dict]:
    """``{game key: {"rating", "deviation", "provisional", "games"}}`` for every game."""
    found = {rating.variant: rating for rating in Rating.objects.filter(user=user)}
    answer = {}
    for key in Variant.values:
        rating = found.get(key) or Rating(user=user, variant=key)
        answer[key] = {
            "rating": round(rating.rating, 1),
            "deviation": round(rating.deviation, 1),
            "provisional": rating.provisional,
            "games": rating.games,
        }
    return answer
