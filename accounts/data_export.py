"""Everything the site holds about a player, as one JSON file they download from
their settings (the right of access).  ``docs/data-export.md`` describes the file.

Only what is the player's own: the chat lines they wrote, not their opponent's;
their reports, not what the staff did with them; whom they blocked, not who
blocked them; whom they follow, not who follows them; their tokens' names, never
their hashes.  A game's moves and positions are those of its record for the player
(``presenters.listed_moves``, ``presenters.view_fen``), so nothing of an
opponent's secret Shuuro army is in it.

Built as it is sent, in bounded memory and a fixed number of queries: one per
section, and for the games two per ``CHUNK`` of them (the games with their
players, then all their moves).  Each download reads every game of the player,
so a player may make ``DOWNLOADS_PER_HOUR`` an hour.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from datetime import datetime

from allauth.account.models import EmailAddress
from django.db.models import Q
from django.utils import timezone

from games import api_limits
from games.models import (
    Challenge,
    ChatMessage,
    ChatReport,
    Entry,
    Game,
    Note,
    Notification,
    Plan,
    Rating,
    RatingChange,
)
from games.notify import game_url
from games.presenters import game_moves, listed_moves, view_fen

from .models import ApiToken, Block, Follow

FORMAT = "carolo-data-export"
VERSION = 1
CHUNK = 100
DOWNLOADS_PER_HOUR = 5
HOUR = 3600

# The file's names for fields whose own would mislead: a "game" is one of the site's
# games (Le Carolo...), as on the pages; a player is named by their username.
KEYS = {
    "variant": "game",
    "tournament__variant": "game",
    "challenger__username": "challenger",
    "opponent__username": "opponent",
    "blocked__username": "blocked",
    "followed__username": "followed",
    "tournament__creator__username": "creator",
    "tournament__name": "name",
    "tournament__status": "status",
}

# The User fields that are the player's own data: not the password hash, nor the
# groups and permissions the staff hand out.
ACCOUNT_FIELDS = (
    "id username first_name last_name email date_joined last_login last_seen is_active"
    " is_bot is_staff language time_zone notify confirm_moves chat_enabled"
    " vacation_started_at vacation_until vacation_days_used vacation_year"
).split()


# The sections of one model's rows each, the oldest first: the section's name, the
# model, the field naming the player, the fields given (as ``values()`` takes them).
CHALLENGE = "id variant options days_per_move rated color status bot_level created_at"
CHALLENGE += " challenger__username opponent__username game_id rematch_of_id"
TABLES = (
    (
        "ratings",
        Rating,
        "user",
        "variant rating deviation volatility games wins draws losses last_rated_at",
    ),
    (
        "rating_history",
        RatingChange,
        "user",
        "game_id variant before after deviation_before deviation_after created_at",
    ),
    ("notes", Note, "user", "game_id text updated_at"),
    ("conditional_moves", Plan, "user", "game_id lines updated_at"),
    ("chat_messages", ChatMessage, "author", "id game_id text created_at"),
    ("chat_reports", ChatReport, "reporter", "message_id reason created_at"),
    ("challenges_made", Challenge, "challenger", CHALLENGE),
    ("challenges_received", Challenge, "opponent", CHALLENGE),
    (
        "tournament_entries",
        Entry,
        "player",
        "tournament_id tournament__name tournament__variant tournament__status"
        " tournament__creator__username joined_at",
    ),
    ("blocks", Block, "blocker", "blocked__username created_at"),
    ("follows", Follow, "follower", "followed__username created_at"),
    ("api_tokens", ApiToken, "user", "name created_at last_used_at"),
    (
        "emails",
        Notification,
        "user",
        "kind game_id challenge_id tournament_id created_at sent_at outcome",
    ),
)


def count_download(user) -> bool:
    """Count one download by ``user``; False once ``DOWNLOADS_PER_HOUR`` are passed
    in this hour's window."""
    return api_limits.count_in_window(f"data-export:{user.pk}", DOWNLOADS_PER_HOUR, HOUR)


def seconds_to_wait() -> int:
    """The seconds until the next download after ``count_download`` said no."""
    return api_limits.seconds_left(HOUR)


def export_json(user, *, now: datetime | None = None) -> Iterator[str]:
    """The file's text in parts: a JSON object of one key per section, each list
    item on a line of its own."""
    now = now or timezone.now()
    yield f'{{"format": "{FORMAT}", "version": {VERSION}, "exported_at": {_json(now)}'
    for name, content in _sections(user):
        yield f',\n"{name}": '
        if isinstance(content, dict):
            yield _json(content)
        else:
            yield from _array(content)
    yield "}\n"


def _sections(user) -> Iterator[tuple[str, dict | Iterable[dict]]]:
    yield "account", _account(user)
    yield "games", _games(user)
    for name, model, owner, fields in TABLES:
        yield name, _rows(model.objects.filter(**{owner: user}).order_by("pk"), fields)


def _account(user) -> dict:
    account = {name: getattr(user, name) for name in ACCOUNT_FIELDS}
    addresses = EmailAddress.objects.filter(user=user).order_by("-primary", "email")
    account["email_addresses"] = list(addresses.values("email", "verified", "primary"))
    return account


def _rows(rows, fields: str) -> Iterator[dict]:
    """The ``fields`` of ``rows`` (space-separated, as ``values()`` takes them), each
    under its ``KEYS`` name if it has one, else its own."""
    fields = fields.split()
    keys = [KEYS.get(field, field) for field in fields]
    for row in rows.values_list(*fields).iterator(chunk_size=CHUNK):
        yield dict(zip(keys, row, strict=True))


def _games(user) -> Iterator[dict]:
    """The player's games, the oldest first, ``CHUNK`` at a time."""
    games = (
        Game.objects.filter(Q(white=user) | Q(black=user))
        .select_related("white", "black")
        .order_by("pk")
    )
    last = 0
    while True:
        chunk = list(games.filter(pk__gt=last)[:CHUNK])
        if not chunk:
            return
        rows = game_moves([game.pk for game in chunk])
        for game in chunk:
            yield _game(game, game.side_of(user), rows.get(game.pk, []))
        if len(chunk) < CHUNK:
            return
        last = chunk[-1].pk


def _game(game: Game, side: str, rows: list[tuple]) -> dict:
    """``game`` as its record shows it to the player playing ``side``."""
    result = None
    if game.status == Game.Status.FINISHED:
        result = game.winner or "draw"
    return {
        "id": game.pk,
        "game": game.variant,
        "options": game.options,
        "rated": game.rated,
        "days_per_move": game.days_per_move,
        "white": game.white.username,
        "black": game.black.username,
        "side": side,
        "status": game.status,
        "result": result,
        "reason": game.result_reason,
        "tournament_id": game.tournament_id,
        "started_at": game.created_at,
        "ended_at": game.ended_at,
        "url": game_url(game),
        "start_fen": view_fen(game.engine.from_fen(game.start_fen), side),
        "moves": [{"side": move.side, "text": move.text} for move in listed_moves(rows, side)],
        "fen": view_fen(game.position(), side, over=game.shows_all),
    }


def _array(items: Iterable[dict]) -> Iterator[str]:
    separator = "[\n"
    for item in items:
        yield separator + _json(item)
        separator = ",\n"
    yield "[]" if separator == "[\n" else "\n]"


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, default=_time)


def _time(value):
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")
