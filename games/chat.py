"""The chat between the two players of a game: read and written by those two only.

Never a spectator, an anonymous visitor or a bot: a game against a bot has no chat.
A player who turns chat off in their settings sees none and cannot write, and
neither can their opponent (nobody writes into the void).  A message is not part
of the game: posting neither locks nor writes the game's row, so the game's
version, poll token and the API's ETag stay as they were; nor does the record, the
API or an e-mail carry one.  It works during the game and after it ends.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import blocks
from accounts.models import Block
from games import rules, services
from games.models import CHAT_MAX_LENGTH, ChatMessage, Game

PER_MINUTE = 10  # messages a player may send in one game in any 60 seconds
POLL_SECONDS = 10  # how often a page asks for new messages while it is in view


def may_chat(user, game: Game) -> bool:
    """Whether ``game`` has a chat for ``user``: one of two players who are people."""
    side = game.side_of(user)
    return side is not None and not user.is_bot and not game.player(rules.opponent(side)).is_bot


def opponent(user, game: Game):
    return game.player(rules.opponent(game.side_of(user)))


def messages_for(user, game: Game, after_id: int | None = None) -> list[ChatMessage]:
    """The messages of ``game`` that ``user`` sees, oldest first, those after
    ``after_id`` only if given: a player's with chat on; none for anyone else."""
    if not may_chat(user, game) or not user.chat_enabled:
        return []
    found = _unhidden(user, ChatMessage.objects.filter(game=game)).select_related("author")
    if after_id is not None:
        found = found.filter(pk__gt=after_id)
    return list(found)


def _unhidden(user, messages):
    """``messages`` without those of the players ``user`` has blocked: a block hides
    from the blocker what the blocked player wrote, before it too."""
    hidden = Block.objects.filter(blocker=user, blocked=OuterRef("author"))
    return messages.filter(~Exists(hidden))


def post_message(user, game_id, text: str) -> ChatMessage:
    """Send ``text`` from ``user`` to their opponent in the game.  Refused: a game that
    does not exist (NotFound), a user who does not play in it or whose opponent is a
    bot (Forbidden), chat turned off by either player, a text empty, too long or with
    a NUL character (GameError), more than PER_MINUTE messages in a minute (TooMany);
    and then nothing is saved."""
    game = services.game_with_players(game_id)
    if not may_chat(user, game):
        raise services.Forbidden(_("You are not playing in this game."))
    if not user.chat_enabled:
        raise services.GameError(_("You have turned chat off in your settings."))
    other = opponent(user, game)
    if not other.chat_enabled:
        raise services.GameError(_("%(name)s has turned chat off.") % {"name": other.username})
    text = clean_text(text)
    with transaction.atomic():
        # The author's row, locked as a challenge locks it (FOR NO KEY UPDATE): two
        # messages sent at once count each other, and a block made meanwhile is seen
        # (accounts.blocks locks both players' rows).  The game's row is not locked.
        get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).first()
        blocked_by = blocks.blocker_ids(user, other)
        if user.pk in blocked_by:
            raise services.GameError(
                _("You have blocked %(name)s: the chat is closed.") % {"name": other.username}
            )
        if blocked_by:
            raise services.GameError(
                _("%(name)s has blocked you: the chat is closed.") % {"name": other.username}
            )
        now = timezone.now()
        recent = ChatMessage.objects.filter(
            author=user, game=game, created_at__gt=now - timedelta(minutes=1)
        )
        if recent.count() >= PER_MINUTE:
            raise services.TooMany(
                _("You have sent %(count)d messages in the last minute: wait a little.")
                % {"count": PER_MINUTE}
            )
        return ChatMessage.objects.create(game=game, author=user, text=text, created_at=now)


def clean_text(text: str) -> str:
    """``text`` as a message keeps it: stripped; GameError if empty, too long or with a
    NUL character (no database text keeps one)."""
    text = str(text).strip()
    if not text:
        raise services.GameError(_("Write a message first."))
    if "\x00" in text:
        raise services.GameError(_("A message cannot contain a NUL character."))
    if len(text) > CHAT_MAX_LENGTH:
        raise services.GameError(
            _("A message is limited to %(limit)d characters; this one has %(count)d.")
            % {"limit": CHAT_MAX_LENGTH, "count": len(text)}
        )
    return text


def news(user, game_id: int, after_id: int | None) -> bool | None:
    """For a chat poll, in one query: whether ``game_id`` has messages after
    ``after_id``; None if there is no such game.  Forbidden if the game has no chat
    for ``user`` (a stranger, a bot, a game with a bot)."""
    if not 0 < game_id <= services.MAX_ID:
        return None
    newer = ChatMessage.objects.filter(game=OuterRef("pk")).exclude(
        # the messages of a player the user blocked are not news to them
        Exists(Block.objects.filter(blocker=getattr(user, "pk", None), blocked=OuterRef("author")))
    )
    if after_id is not None:
        newer = newer.filter(pk__gt=after_id)
    row = (
        Game.objects.filter(pk=game_id)
        .values("white_id", "black_id", "white__is_bot", "black__is_bot")
        .annotate(new=Exists(newer))
        .first()
    )
    if row is None:
        return None
    opponents = {row["white_id"]: rules.BLACK, row["black_id"]: rules.WHITE}
    other = opponents.get(getattr(user, "pk", None))
    if other is None or user.is_bot or row[f"{other}__is_bot"]:
        raise services.Forbidden(_("You are not playing in this game."))
    return row["new"]
