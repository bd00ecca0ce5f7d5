"""A player's conditional moves in a game: the replies they planned to the moves
their opponent may make, played for them as soon as the opponent makes one."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .play import Game

PLAN_MAX_LINES = 20
PLAN_MAX_MOVES = 20  # moves of one line, the opponent's and the replies


class Plan(models.Model):
    """``lines``: a JSON list of lines, each a list of move texts as the game writes
    them (``Position.move_text``), the opponent's move first, then alternately the
    planned reply and the opponent's next move; always of even length.  Lines that
    begin alike form a tree (``games.plans``): none is a start of another, and two
    lines that reach the same opponent's move give it the same reply.  While a plan
    exists its player's side is ``Game.plan_side``, so a move reads it only then."""

    # no index of its own: the unique (game, user) constraint leads with it
    game = models.ForeignKey(Game, models.CASCADE, related_name="+", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="+")
    lines = models.JSONField(default=list)
    updated_at = models.DateTimeField()

    class Meta:
        verbose_name = _("conditional moves")
        verbose_name_plural = _("conditional moves")
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="plan_one_per_player"),
        ]

    def __str__(self) -> str:
        return f"plan of {self.user_id} in game {self.game_id}"
