from django.contrib.auth.models import AbstractUser
from django.db import models, transaction
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .validators import validate_username


class User(AbstractUser):
    class Notify(models.TextChoices):
        PER_TURN = "per_turn", _("An e-mail each time it is my turn")
        DAILY = "daily", _("One daily summary")
        NONE = "none", _("No e-mails")

    username = models.CharField(
        _("username"),
        max_length=20,
        unique=True,
        validators=[validate_username],
        help_text=_("3 to 20 characters: letters, digits, _ and - only."),
        error_messages={"unique": _("That username is taken.")},
    )
    notify = models.CharField(
        _("e-mail notifications"),
        max_length=16,
        choices=Notify.choices,
        default=Notify.PER_TURN,
    )
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    # The site's language the player last used (LANGUAGES): their e-mails are in it.
    language = models.CharField(_("language"), max_length=8, default="en")
    confirm_moves = models.BooleanField(
        _("confirm moves"),
        default=True,
        help_text=_("Ask for a confirmation before a move is sent."),
    )
    chat_enabled = models.BooleanField(
        _("chat in games"),
        default=True,
        help_text=_(
            "A chat box on your game pages to talk with your opponent. Off: you see no "
            "messages, and nobody can write to you."
        ),
    )
    is_bot = models.BooleanField(default=False)
    last_seen = models.DateTimeField(null=True, blank=True)
    # Vacation pauses the player's clocks (games.clock): up to 30 days a calendar year.
    vacation_started_at = models.DateTimeField(null=True, blank=True)
    vacation_until = models.DateTimeField(null=True, blank=True, db_index=True)
    vacation_days_used = models.PositiveSmallIntegerField(default=0)
    vacation_year = models.PositiveSmallIntegerField(default=0)  # the year days_used counts

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
        ]

    def __str__(self):
        return self.username

    def save(self, *args, **kwargs):
        """A new password ends the player's API tokens, as it ends their other sessions:
        whoever took the account over keeps no access once the owner gets it back.
        Every way of setting one ends here (the site's pages, the admin,
        ``manage.py changepassword``); ``tokens_revoked`` says how many went."""
        if self._password is None or self._state.adding:
            return super().save(*args, **kwargs)
        with transaction.atomic():
            super().save(*args, **kwargs)
            self.tokens_revoked = ApiToken.objects.filter(user=self).delete()[0]

    @property
    def on_vacation(self):
        return self.vacation_started_at is not None

    def get_absolute_url(self):
        return reverse("profile", args=[self.username])


class ApiToken(models.Model):
    """A personal access token for the JSON API; only its sha256 is stored."""

    user = models.ForeignKey(User, models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=50)
    digest = models.CharField(max_length=64, unique=True)  # sha256 hex of the token
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.name} ({self.user})"


class Block(models.Model):
    """``blocker`` will have nothing new to do with ``blocked``, and they with
    ``blocker``: no challenge either way, no chat in their games (accounts.blocks)."""

    # no index of its own: the unique (blocker, blocked) index leads with it
    blocker = models.ForeignKey(User, models.CASCADE, related_name="+", db_index=False)
    blocked = models.ForeignKey(User, models.CASCADE, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="accounts_block_unique"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="accounts_block_not_self"
            ),
        ]

    def __str__(self):
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Follow(models.Model):
    """``follower`` watches ``followed``'s games on their /following/ page
    (accounts.follows): nothing the followed player is told or has to allow."""

    # no index of its own: the unique (follower, followed) index leads with it; the
    # other direction (a player's followers) has the index of ``followed``
    follower = models.ForeignKey(User, models.CASCADE, related_name="+", db_index=False)
    followed = models.ForeignKey(User, models.CASCADE, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="accounts_follow_unique"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followed")), name="accounts_follow_not_self"
            ),
        ]

    def __str__(self):
        return f"{self.follower_id} follows {self.followed_id}"
