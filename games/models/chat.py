"""The chat between the two players of a game: read and written by those two only;
and the reports of its messages to the staff."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.utils.translation import gettext_lazy as _

from .play import Game

CHAT_MAX_LENGTH = 500


class ChatMessage(models.Model):
    # The game's row is never written by a message: its version, poll token and ETag stay.
    # no index of their own: the (game, id) and (author, created_at) indexes lead with them
    game = models.ForeignKey(Game, models.CASCADE, related_name="+", db_index=False)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="+", db_index=False
    )
    text = models.TextField(max_length=CHAT_MAX_LENGTH)
    created_at = models.DateTimeField()

    class Meta:
        verbose_name = _("chat message")
        ordering = ["id"]
        indexes = [
            # a page's messages, and a poll's "anything after this one?"
            models.Index(fields=["game", "id"], name="chat_game_id"),
            # how many a player sent in the last minute (the rate limit)
            models.Index(fields=["author", "created_at"], name="chat_author_created"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("text"), CHAT_MAX_LENGTH) & ~models.Q(text=""),
                name="chat_text_length",
            ),
        ]

    def __str__(self) -> str:
        return f"message {self.pk} of {self.author_id} in game {self.game_id}"


class ChatReport(models.Model):
    """A player's report of a message of their opponent, for the staff to review.
    Its author is never told."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Abuse")
        SPAM = "spam", _("Spam")
        CHEATING = "cheating", _("Cheating talk")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        DISMISSED = "dismissed", _("dismissed")
        ACTED = "acted", _("acted on")

    # Like a message, a report never writes the game's row.
    # no index of its own: the unique (message, reporter) constraint leads with it
    message = models.ForeignKey(ChatMessage, models.CASCADE, related_name="+", db_index=False)
    # no index of its own: the (reporter, created_at) index leads with it
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="+", db_index=False
    )
    reason = models.CharField(max_length=16, choices=Reason, blank=True)  # "": none given
    created_at = models.DateTimeField()
    status = models.CharField(max_length=16, choices=Status, default=Status.OPEN)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("chat report")
        ordering = ["id"]
        indexes = [
            # how many a player made in the last hour (the rate limit)
            models.Index(fields=["reporter", "created_at"], name="chat_report_reporter_created"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once"),
        ]

    def __str__(self) -> str:
        return f"report {self.pk} of message {self.message_id} by {self.reporter_id}"
