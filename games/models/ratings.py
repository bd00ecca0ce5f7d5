"""Glicko-2 ratings, one per player per game, and the change each rated game made."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games import glicko2

from .play import Game, Variant


def shown(rating: float, deviation: float) -> str:
    """A rating as players see it: ``1523``, or ``1523?`` while provisional."""
    return f"{round(rating)}{'?' if glicko2.is_provisional(deviation) else ''}"


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="ratings")
    variant = models.CharField(max_length=16, choices=Variant.choices)
    rating = models.FloatField(default=glicko2.START_RATING)
    deviation = models.FloatField(default=glicko2.START_DEVIATION)
    volatility = models.FloatField(default=glicko2.START_VOLATILITY)
    games = models.PositiveIntegerField(default=0)  # rated games
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    last_rated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="rating_one_per_game"),
        ]
        indexes = [
            models.Index(fields=["variant", "-rating"], name="rating_leaderboard_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.get_variant_display()} {self.display}"

    @property
    def provisional(self) -> bool:
        return glicko2.is_provisional(self.deviation)

    @property
    def display(self) -> str:
        return shown(self.rating, self.deviation)

    def glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.deviation, self.volatility)


class RatingChange(models.Model):
    game = models.ForeignKey(Game, models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="rating_changes"
    )
    variant = models.CharField(max_length=16, choices=Variant.choices)
    before = models.FloatField()
    after = models.FloatField()
    deviation_before = models.FloatField(null=True)  # null: rated before it was kept
    deviation_after = models.FloatField()
    created_at = models.DateTimeField()

    class Meta:
        verbose_name = _("rating change")
        constraints = [
            # A game is rated once per player, whatever calls rate_game.
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_once_per_game"),
        ]
        indexes = [
            models.Index(fields=["user", "variant", "created_at"], name="rating_history_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.diff:+d} in game {self.game_id}"

    @property
    def display_before(self) -> str:
        """The rating the game was played at, as players saw it (no ``?`` for a change
        rated before its deviation was kept)."""
        return shown(self.before, self.deviation_before or 0)

    @property
    def diff(self) -> int:
        """The change as shown: the difference of the rounded ratings."""
        return round(self.after) - round(self.before)
