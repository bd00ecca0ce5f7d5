"""The chat between the two players of a game: read and written by those two only.

Never a spectator, an anonymous visitor or a bot: a game against a bot has no chat.
A player who turns chat off in their settings sees none and cannot write, and
neither can their opponent (nobody writes into the void).  A message is not part
of the game: posting neither locks nor writes the game's row, so the game's
version, poll token and the API's ETag stay as they were; nor does the record, the
API or an e-mail carry one.  It works during the game and after it ends.

A player may report a message of their opponent to the staff (at most
REPORTS_PER_HOUR reports in an hour), who review it in the admin; its author is
never told, and a report, like a message, never writes the game's row.  The staff
get no e-mail: the site has no staff address (no ADMINS) to send one to.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import blocks, closing
from accounts.models import Block
from games import rules, services
from games.models import CHAT_MAX_LENGTH, ChatMessage, ChatReport, Game

PER_MINUTE = 10  # messages a player may send in one game in any 60 seconds
POLL_SECONDS = 10  # how often a page asks for new messages while it is in view
REPORTS_PER_HOUR = 10  # reports a player may make in any hour, all games together
CONTEXT_LINES = 5  # the messages before and after a reported one that the staff see


class AlreadyReported(services.GameError):
    """A message reported again by the same player: nothing new is stored."""


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
    found = _shown(user, ChatMessage.objects.filter(game=game))
    if after_id is not None:
        found = found.filter(pk__gt=after_id)
    return list(found)


def _shown(user, messages: QuerySet) -> QuerySet:
    """``messages`` as ``user``'s panel shows them: without those of a player they
    blocked, each with ``report_reason``, the reason of the user's report of it ("" if
    they gave none; None if they did not report it)."""
    report = ChatReport.objects.filter(message=OuterRef("pk"), reporter=user)
    return (
        _unhidden(user, messages)
        .select_related("author")
        .annotate(report_reason=Subquery(report.values("reason")[:1]))
    )


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


def reportable(user, game_id, message_id) -> ChatMessage:
    """The message ``message_id`` of the game as ``user`` sees it, if it is one of
    their opponent's that they may report.  NotFound: no such game or message, a game
    with no chat for ``user``, a message hidden from them (they turned chat off or
    blocked its author), so that nobody learns what they may not read; Forbidden:
    their own message."""
    game = services.game_with_players(game_id)
    found = None
    if may_chat(user, game) and user.chat_enabled:
        messages = ChatMessage.objects.filter(game=game, pk=services.row_key(message_id))
        found = _shown(user, messages).first()
    if found is None:
        raise services.NotFound(_("No such message."))
    if found.author_id == user.pk:
        raise services.Forbidden(_("You cannot report your own message."))
    return found


def report_message(user, game_id, message_id, reason: str = "") -> ChatReport:
    """``user`` reports a message of their opponent (``reportable``) to the staff, for
    ``reason`` if given (a ChatReport.Reason).  Sent again, it only adds the reason to
    a report that had none; else AlreadyReported.  Refused with GameError: a reason not
    on the list; with TooMany: more than REPORTS_PER_HOUR reports in an hour."""
    message = reportable(user, game_id, message_id)
    if reason and reason not in ChatReport.Reason.values:
        raise services.GameError(_("Choose a reason from the list."))
    with transaction.atomic():
        # The reporter's row, locked as a message locks its author's: two reports made
        # at once count each other.  The game's row is not touched.
        get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).first()
        report = ChatReport.objects.filter(message=message, reporter=user).first()
        if report is not None:
            if not reason or report.reason:
                raise AlreadyReported(_("You have already reported this message."))
            report.reason = reason
            report.save(update_fields=["reason"])
            return report
        now = timezone.now()
        recent = ChatReport.objects.filter(reporter=user, created_at__gt=now - timedelta(hours=1))
        if recent.count() >= REPORTS_PER_HOUR:
            raise services.TooMany(
                _("You have made %(count)d reports in the last hour: wait a little.")
                % {"count": REPORTS_PER_HOUR}
            )
        return ChatReport.objects.create(
            message=message, reporter=user, reason=reason, created_at=now
        )


def handle_reports(reports: QuerySet, staff, status: str, *, close_authors: bool = False) -> int:
    """The staff member ``staff`` closes ``reports`` with ``status`` (dismissed or acted
    on); with ``close_authors``, the accounts of the messages' authors are closed too,
    as a player closes their own (``accounts.closing``: their games end, they can no
    longer sign in).  The number of reports closed."""
    with transaction.atomic():
        if close_authors:
            authors = ChatMessage.objects.filter(pk__in=reports.values("message_id"))
            for author in (
                get_user_model()
                .objects.filter(pk__in=authors.values("author_id"), is_active=True)
                .order_by("pk")
            ):
                closing.close_account(author)
        return reports.update(status=status, handled_by=staff, handled_at=timezone.now())


def context_of(message: ChatMessage) -> list[ChatMessage]:
    """The messages of the game around ``message``, oldest first: up to CONTEXT_LINES
    before it, itself, and up to CONTEXT_LINES after it, from both players."""
    game = ChatMessage.objects.filter(game_id=message.game_id).select_related("author")
    before = game.filter(pk__lt=message.pk).order_by("-pk")[:CONTEXT_LINES]
    after = game.filter(pk__gte=message.pk).order_by("pk")[: CONTEXT_LINES + 1]
    return [*reversed(before), *after]
