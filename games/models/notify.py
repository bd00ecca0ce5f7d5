"""The notification outbox: rows written in the same transaction as the change they report.

A row is an event to tell one player about (their turn, a reminder, a result, a
challenge, the daily digest, a tournament's start or end).  Its ``key`` is unique,
so writing the same event twice is impossible; delivery claims due rows, sends,
and sets ``sent_at``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    class Kind(models.TextChoices):
        TURN = "turn", _("Your turn")
        REMINDER = "reminder", _("Reminder")
        RESULT = "result", _("Result")
        CHALLENGE = "challenge", _("Challenge")
        DAILY = "daily", _("Daily digest")
        TOURNAMENT_START = "tour-start", _("Tournament started")
        TOURNAMENT_END = "tour-end", _("Tournament over")

    class Outcome(models.TextChoices):
        SENT = "sent", _("Sent")
        DIGEST = "digest", _("Sent in a digest")
        PRESENT = "present", _("Skipped: the player was looking")
        STALE = "stale", _("Skipped: no longer true")
        OFF = "off", _("Skipped: the player's settings")
        REFUSED = "refused", _("Not sent: the mail server refused the address")

    kind = models.CharField(max_length=10, choices=Kind.choices)
    # Indexed by notification_user_idx (user, kind, sent_at).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="+", db_index=False
    )
    game = models.ForeignKey("Game", models.CASCADE, null=True, blank=True, related_name="+")
    challenge = models.ForeignKey(
        "Challenge", models.CASCADE, null=True, blank=True, related_name="+"
    )
    tournament = models.ForeignKey(
        "Tournament", models.CASCADE, null=True, blank=True, related_name="+"
    )
    ply = models.PositiveIntegerField(default=0)  # the game's ply when the row was written
    key = models.CharField(max_length=100)  # e.g. turn:<game>:<ply>:<user>; unique
    created_at = models.DateTimeField()
    due_at = models.DateTimeField()
    claimed_until = models.DateTimeField(null=True, blank=True)  # a sender's lease
    sent_at = models.DateTimeField(null=True, blank=True)  # set once handled, sent or not
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True)

    class Meta:
        ordering = ["due_at", "pk"]
        # A constraint, not unique=True, which adds a second index for LIKE queries.
        constraints = [models.UniqueConstraint(fields=["key"], name="notification_key_unique")]
        indexes = [
            models.Index(
                fields=["due_at"], condition=Q(sent_at__isnull=True), name="notification_due_idx"
            ),
            models.Index(fields=["user", "kind", "sent_at"], name="notification_user_idx"),
        ]

    def __str__(self) -> str:
        return self.key
