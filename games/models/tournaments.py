"""Round-robin tournaments: their entrants; their games are Games with ``tournament`` set."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import pgettext_lazy

from .play import Variant

MIN_PLAYERS = 3
MAX_PLAYERS = 10


class Tournament(models.Model):
    """A double round robin: once it starts, each pair of entrants plays two games,
    one with each colour, all at once, on the terms of a challenge (game, options,
    days per move, rated)."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("tournament", "Open")
        RUNNING = "running", pgettext_lazy("tournament", "Running")
        FINISHED = "finished", pgettext_lazy("tournament", "Finished")

    name = models.CharField(max_length=80)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, related_name="tournaments_made"
    )
    variant = models.CharField(max_length=16, choices=Variant.choices)
    options = models.JSONField(default=dict, blank=True)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=True)
    max_players = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "-created_at"], name="tournament_status_idx")]
        constraints = [
            models.CheckConstraint(
                condition=Q(max_players__gte=MIN_PLAYERS, max_players__lte=MAX_PLAYERS),
                name="tournament_size",
            ),
            models.CheckConstraint(
                condition=Q(days_per_move__isnull=False) | Q(rated=False),
                name="tournament_unlimited_is_casual",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player in a tournament."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="tournament_entries"
    )
    joined_at = models.DateTimeField()

    class Meta:
        ordering = ["joined_at", "pk"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"
