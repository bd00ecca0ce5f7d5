"""The shapes of the JSON API's requests and answers (published in /api/schema).

Inputs are strict: a ply sent as a string or a move sent as a number is refused
with 400, never coerced, and every string has a length limit and no NUL character
(PostgreSQL refuses NUL in text: it could only end in a server error).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from ninja import Schema
from pydantic import (
    AfterValidator,
    Discriminator,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
    Tag,
)
from pydantic_core import PydanticCustomError


def _no_nul(text: str) -> str:
    if "\x00" in text:
        raise PydanticCustomError("no_nul", "a NUL character is not allowed")
    return text


def _text(max_length: int, min_length: int = 0):
    return Annotated[
        StrictStr,
        StringConstraints(min_length=min_length, max_length=max_length),
        AfterValidator(_no_nul),
    ]


Username = _text(150, min_length=1)
OptionName = _text(50)


def _option_kind(value) -> str | None:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    return "text" if isinstance(value, str) else None


OPTION_KINDS = ("text", "int", "bool")  # an option value's union tags: left out of error paths
# Tagged by its JSON type, so that a wrong value gets one error, not one per kind tried.
OptionValue = Annotated[
    Annotated[_text(500), Tag("text")]
    | Annotated[StrictInt, Tag("int")]
    | Annotated[StrictBool, Tag("bool")],
    Discriminator(
        _option_kind,
        custom_error_type="option_value",
        custom_error_message="must be text, a whole number, true or false",
    ),
]
GameKey = Literal["carolo", "carge", "rococo", "shuuro", "shuuro-mini"]
SideName = Literal["white", "black"]


class ErrorOut(Schema):
    error: str


# The error answers every operation may give, as the schema publishes them.
ERRORS = {code: ErrorOut for code in (400, 401, 403, 404, 409, 429)}


class TokenIn(Schema):
    username: Username
    password: _text(200)
    name: _text(50) = "API"


class TokenOut(Schema):
    token: str


class RatingOut(Schema):
    rating: float
    deviation: float
    provisional: bool
    games: int


class AccountOut(Schema):
    username: str
    is_bot: bool
    ratings: dict[str, RatingOut]


class ChallengeIn(Schema):
    game: GameKey
    options: Annotated[
        dict[OptionName, OptionValue],
        Field(max_length=20),
    ] = Field(default_factory=dict)  # noqa: E501
    days_per_move: StrictInt | None = 3
    rated: StrictBool = True
    color: Literal["white", "black", "random"] = "random"
    opponent: Username | None = None
    level: StrictInt | None = None  # a bot opponent's strength, 1 to 5 (default 3)


class ChallengeCreated(Schema):
    id: int
    url: str
    game_id: int | None  # the game, when a site bot accepted at once


class ChallengeOut(Schema):
    id: int
    url: str
    status: str
    game: str
    options: dict[str, str]
    days_per_move: int | None
    rated: bool
    color: str
    challenger: str
    opponent: str | None
    created_at: datetime
    game_id: int | None  # the game it started, once accepted
    rematch_of: int | None  # the ended game it is a rematch of


class ChallengeClosed(Schema):
    id: int
    status: str


class AcceptedOut(Schema):
    game_id: int
    url: str


class PlayersOut(Schema):
    white: str
    black: str


class OutcomeOut(Schema):
    winner: str | None = Field(description="the winner's username; null for a draw or an abort")
    winner_side: SideName | None
    reason: str
    text: str


class GameSummary(Schema):
    id: int
    url: str
    game: str
    status: str
    rated: bool
    days_per_move: int | None
    players: PlayersOut
    my_side: SideName | None
    ply: int
    phase: str
    to_move: list[str]
    deadline: datetime | None
    outcome: OutcomeOut | None


class GameOut(GameSummary):
    options: dict[str, str]
    start_fen: str = Field(description="the position the game started from")
    fen: str = Field(description="the position as the caller may see it")
    moves: list[str] = Field(description="the moves the caller may see, in order")
    move_sides: list[Literal["white", "black", "chance"]] = Field(
        description="who made each of ``moves``: Shuuro's recruitment moves read "
        "alike for both sides, so a replay needs it"
    )
    legal_moves: list[str] = Field(description="the caller's moves, when the caller may act now")
    draw_offer: str | None = Field(description="username of the player offering a draw")
    draw_declined: str | None = Field(
        description="username of the player whose draw offer was declined, until their "
        "next move, a new offer or the end of the game"
    )


class MoveIn(Schema):
    move: _text(100)
    ply: Annotated[StrictInt, Field(ge=0)]


class DrawIn(Schema):
    action: Literal["offer", "accept", "decline"]


class RematchIn(Schema):
    action: Literal["offer", "accept", "decline", "cancel"]
