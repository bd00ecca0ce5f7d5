"""A player's private notes on a game: read and written by their author only.

A note is not part of the game: saving one neither locks nor writes the game's
row, so the game's version, poll token and the API's ETag stay as they were, and
no move is made.  Nothing but the game page of its author shows it: not the
opponent's page, the record, the API or an e-mail.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from games import services
from games.models import NOTE_MAX_LENGTH, Game, Note


def note_of(user, game: Game) -> Note | None:
    """``user``'s note on ``game``; None if they have none or may have none."""
    if not may_have_notes(user, game):
        return None
    return Note.objects.filter(game=game, user=user).first()


def save_note(user, game_id, text: str) -> Note | None:
    """Keep ``text`` as ``user``'s note on the game; an empty text deletes the note
    (None).  Refused: a game that does not exist (NotFound), a user who does not
    play in it (Forbidden), a text too long or with a NUL character (GameError),
    and then nothing is saved."""
    game = services.game_with_players(game_id)
    if not may_have_notes(user, game):
        raise services.Forbidden(_("You are not playing in this game."))
    text = clean_text(text)
    if not text:
        Note.objects.filter(game=game, user=user).delete()
        return None
    # Two saves at once: the second insert meets the unique (game, user) constraint,
    # and update_or_create then reads the row the first one made and updates it.
    note, _created = Note.objects.update_or_create(
        game=game, user=user, defaults={"text": text, "updated_at": timezone.now()}
    )
    return note


def clean_text(text: str) -> str:
    """``text`` as a note keeps it: a browser's CRLF line ends as one character each
    (as the text box counted them), trailing whitespace gone; GameError if too long
    or if it holds a NUL character (no database text keeps one)."""
    text = str(text).replace("\r\n", "\n").replace("\r", "\n").rstrip()
    if "\x00" in text:
        raise services.GameError(_("Notes cannot contain a NUL character."))
    if len(text) > NOTE_MAX_LENGTH:
        raise services.GameError(
            _("Notes are limited to %(limit)d characters; these have %(count)d.")
            % {"limit": NOTE_MAX_LENGTH, "count": len(text)}
        )
    return text


def may_have_notes(user, game: Game) -> bool:
    """The two players of a game, never a bot (a bot reads no page)."""
    return game.side_of(user) is not None and not user.is_bot
