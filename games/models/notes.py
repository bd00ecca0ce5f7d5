"""A player's private notes on a game: seen by their author only, never part of the game."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.utils.translation import gettext_lazy as _

from .play import Game

NOTE_MAX_LENGTH = 2000


class Note(models.Model):
    # The game's row is never touched by a note: its version, poll token and ETag stay.
    # no index of its own: the unique (game, user) constraint leads with it
    game = models.ForeignKey(Game, models.CASCADE, related_name="+", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    text = models.TextField(max_length=NOTE_MAX_LENGTH)
    updated_at = models.DateTimeField()

    class Meta:
        verbose_name = _("note")
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="note_one_per_player"),
            # an empty note is no note: saving one deletes it
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("text"), NOTE_MAX_LENGTH) & ~models.Q(text=""),
                name="note_text_length",
            ),
        ]

    def __str__(self) -> str:
        return f"note of {self.user_id} on game {self.game_id}"
