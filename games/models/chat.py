"""The chat between the two players of a game: read and written by those two only."""

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
