"""Games, their moves and the challenges that start them."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Case, F, Q, When
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import rules


class Variant(models.TextChoices):
    CAROLO = "carolo", _("Le Carolo")
    CARGE = "carge", _("Le Carge")
    ROCOCO = "rococo", _("Rococo")
    SHUURO = "shuuro", _("Shuuro")
    SHUURO_MINI = "shuuro-mini", _("Mini-Shuuro")


class Side(models.TextChoices):
    WHITE = rules.WHITE, _("White")
    BLACK = rules.BLACK, _("Black")


class ColorChoice(models.TextChoices):
    WHITE = "white", _("White")
    BLACK = "black", _("Black")
    RANDOM = "random", _("Random")


DAYS_PER_MOVE = (1, 2, 3, 5, 7, 10, 14)
BOT_LEVELS = (1, 2, 3, 4, 5)


def _token() -> str:
    return secrets.token_urlsafe(9)


class Challenge(models.Model):
    OPEN_DAYS = 30  # a challenge to anyone can be accepted for this many days

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="challenges_made"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_received",
    )
    variant = models.CharField(max_length=16, choices=Variant.choices)
    options = models.JSONField(default=dict, blank=True)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=True)
    color = models.CharField(max_length=6, choices=ColorChoice.choices, default=ColorChoice.RANDOM)
    token = models.CharField(max_length=16, unique=True, default=_token)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    bot_level = models.PositiveSmallIntegerField(null=True, blank=True)  # against a bot
    created_at = models.DateTimeField()
    game = models.OneToOneField(
        "Game", models.SET_NULL, null=True, blank=True, related_name="challenge"
    )
    # A rematch: a challenge to the other player of this ended game, colours swapped.
    rematch_of = models.ForeignKey(
        "Game", models.SET_NULL, null=True, blank=True, related_name="rematches"
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "variant"], name="challenge_status_idx")]
        constraints = [
            # One rematch offer waiting at a time, and one rematch game, per game: a
            # second offer accepts the first (services.offer_rematch, under the game's lock).
            models.UniqueConstraint(
                fields=["rematch_of"],
                condition=Q(status__in=["open", "accepted"]),
                name="challenge_one_rematch",
            ),
            models.CheckConstraint(
                condition=~Q(challenger=F("opponent")), name="challenge_not_self"
            ),
            models.CheckConstraint(
                condition=Q(days_per_move__isnull=False) | Q(rated=False),
                name="challenge_unlimited_is_casual",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} challenge by {self.challenger}"

    @classmethod
    def open_since(cls, now: datetime | None = None) -> datetime:
        """A challenge to anyone made before this has expired: the lobby no longer
        lists it and it can no longer be accepted (one to a named player waits for good)."""
        return (now or timezone.now()) - timedelta(days=cls.OPEN_DAYS)

    @classmethod
    def still_open(cls, now: datetime | None = None) -> models.QuerySet:
        """The open challenges that can still be accepted: those ``expired`` is false
        for, as a query."""
        return cls.objects.filter(status=cls.Status.OPEN, challenger__is_active=True).exclude(
            opponent=None, created_at__lt=cls.open_since(now)
        )

    def expired(self, now: datetime | None = None) -> bool:
        """Open, but no longer to be accepted: one to anyone made over ``OPEN_DAYS``
        ago, or one whose challenger's account is closed.  (One to a named player
        waits for good.)"""
        if self.status != self.Status.OPEN:
            return False
        if not self.challenger.is_active:
            return True
        return self.opponent_id is None and self.created_at < self.open_since(now)


class Game(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    variant = models.CharField(max_length=16, choices=Variant.choices)
    options = models.JSONField(default=dict, blank=True)
    # No index of their own: game_white_idx and game_black_idx lead with them, and
    # every move rewrites the row's entries in all of the game's indexes.
    white = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, related_name="games_as_white", db_index=False
    )
    black = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, related_name="games_as_black", db_index=False
    )
    rated = models.BooleanField(default=True)
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    bot_level = models.PositiveSmallIntegerField(null=True, blank=True)  # against a bot
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    start_fen = models.TextField()
    fen = models.TextField()  # the current position, so a request never replays history
    ply = models.PositiveIntegerField(default=0)  # moves recorded, chance and secret included
    white_to_act = models.BooleanField(default=False)
    black_to_act = models.BooleanField(default=False)
    # Secret moves of each side not yet revealed to the other (Shuuro recruitment).
    white_hidden = models.PositiveIntegerField(default=0)
    black_hidden = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True)
    draw_offer = models.CharField(max_length=5, choices=Side.choices, blank=True)
    # The side whose draw offer the other declined, until its next move: the page says so.
    draw_declined = models.CharField(max_length=5, choices=Side.choices, blank=True)
    winner = models.CharField(max_length=5, choices=Side.choices, blank=True)
    result_reason = models.CharField(max_length=32, blank=True)
    result_text = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField()
    last_move_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)  # bumped on every change; cheap polling
    # The side whose player has conditional moves waiting (games.plans), or "": a move
    # reads the plan only then.  Private to that player: it never moves ``version``.
    plan_side = models.CharField(max_length=5, choices=Side.choices, blank=True, default="")
    # The round-robin tournament the game is part of (games.tournaments), or None.
    # Indexed only where set (game_tournament_idx): every move rewrites the row's
    # entries in the game's indexes, and a partial index skips the other games.
    tournament = models.ForeignKey(
        "Tournament", models.PROTECT, null=True, blank=True, related_name="games", db_index=False
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["deadline"], condition=Q(status="active"), name="game_due_idx"),
            models.Index(fields=["white", "status"], name="game_white_idx"),
            models.Index(fields=["black", "status"], name="game_black_idx"),
            models.Index(
                fields=["tournament"],
                condition=Q(tournament__isnull=False),
                name="game_tournament_idx",
            ),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(white=F("black")), name="game_two_players"),
            models.CheckConstraint(
                condition=Q(status="active", result_reason="", ended_at__isnull=True)
                | (~Q(status="active") & ~Q(result_reason="") & Q(ended_at__isnull=False)),
                name="game_outcome_iff_ended",
            ),
            models.CheckConstraint(
                condition=Q(status="finished") | Q(winner=""), name="game_winner_only_finished"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} #{self.pk}: {self.white} v {self.black}"

    @property
    def engine(self) -> type[rules.Position]:
        return rules.get(self.variant)

    def position(self) -> rules.Position:
        """The position of ``fen``, parsed once per instance and FEN.

        Positions are immutable, so the one a move has just made serves the answer
        too (``set_position``).
        """
        cached = self.__dict__.get("_position")
        if cached is None or cached[0] != self.fen:
            cached = self._position = (self.fen, self.engine.from_fen(self.fen))
        return cached[1]

    def set_position(self, position: rules.Position) -> None:
        self.fen = position.fen()
        self._position = (self.fen, position)

    def side_of(self, user) -> str | None:
        if user is None or not user.is_authenticated:
            return None
        if user.pk == self.white_id:
            return rules.WHITE
        if user.pk == self.black_id:
            return rules.BLACK
        return None

    def player(self, side: str):
        return self.white if side == rules.WHITE else self.black

    def to_act(self) -> list[str]:
        flags = ((rules.WHITE, self.white_to_act), (rules.BLACK, self.black_to_act))
        return [side for side, acts in flags if acts]

    def visible_ply(self, side: str | None) -> int:
        """The ply as ``side`` sees it: the other side's unrevealed moves don't count."""
        hidden = self.white_hidden + self.black_hidden
        if side == rules.WHITE:
            hidden = self.black_hidden
        elif side == rules.BLACK:
            hidden = self.white_hidden
        return self.ply - hidden

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def shows_all(self) -> bool:
        """Over with no secret move left: every viewer may see the whole position.

        A game that ended in Shuuro's recruitment, before both armies were in, keeps
        each side's purchases from the other side and from spectators.
        """
        return not self.is_active and not (self.white_hidden or self.black_hidden)


class Move(models.Model):
    # Indexed by move_ply_unique (game, ply).
    game = models.ForeignKey(Game, models.CASCADE, related_name="moves", db_index=False)
    ply = models.PositiveIntegerField()
    side = models.CharField(max_length=6)  # white, black or chance
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+"
    )
    text = models.CharField(max_length=64)
    fen_after = models.TextField()
    repetition_key = models.TextField(blank=True)
    hidden = models.BooleanField(default=False)  # a secret move not yet revealed
    created_at = models.DateTimeField()
    # On PostgreSQL a foreign key (game, previous_ply) -> (game, ply) makes a gap in
    # the history impossible (migration 0006); ply 1 has no previous move.
    previous_ply = models.GeneratedField(
        expression=Case(When(ply__gt=1, then=F("ply") - 1), default=None),
        output_field=models.PositiveIntegerField(null=True),
        db_persist=True,
    )

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="move_ply_unique"),
            models.CheckConstraint(condition=Q(ply__gte=1), name="move_ply_positive"),
            models.CheckConstraint(
                condition=Q(side__in=["white", "black", "chance"]), name="move_side_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.ply}. {self.text}"
