"""Board clicks to move texts: every game's legal moves, read back from their text.

The engine lists the legal moves; this module only reads each move's text to find
where it starts and where it goes, so a click on a piece can highlight its moves
and a second click can name the move.  Nothing here decides legality.

Move texts read (see /work/shared/rulings.md):

* ``d1-d7``, ``d1xg4`` (Carolo, Carge), ``e2_e4``, ``e7_e8=Q`` (Shuuro fight),
  ``b7-a6xc8:swap`` (Rococo): from a square to a square;
* ``@c3`` (Carge placement): no start, a square;
* ``K@e1``, ``n@g12`` (Shuuro deployment): from the hand piece ``@K`` / ``@n``;
* ``b2n>b2e`` (Carge barrier move): from the pawn's square, the one both barriers
  border (b2 here), no destination (extra buttons under the board).

Recruitment (``+Q``, ``-Q``, ``done``) and dice (``roll 1,2``, ``first w``) are
not board moves and are left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

SQUARE = r"[a-l](?:1[0-2]|[1-9])"
PLACE_RE = re.compile(rf"([A-Za-z]?)@({SQUARE})")
BARRIER_RE = re.compile(rf"({SQUARE})([ne])>({SQUARE})([ne])")
STEP_RE = re.compile(rf"({SQUARE})[-x_]({SQUARE})(.*)")

PLACE = "@"  # the start key of a placement from an anonymous hand (Carge)


@dataclass(frozen=True)
class BoardMove:
    """One legal move as the board sees it."""

    text: str
    start: str  # a square, "@K" (a piece in hand) or "@" (a placement)
    to: str | None  # None for a barrier move
    kind: str  # "step", "place" or "barrier"


def read(text: str) -> BoardMove | None:
    """Where a move text starts and goes on the board; None for a non-board move."""
    found = PLACE_RE.fullmatch(text)
    if found:
        letter, square = found.groups()
        return BoardMove(text, f"@{letter}" if letter else PLACE, square, "place")
    found = BARRIER_RE.fullmatch(text)
    if found:
        before = _beside(found.group(1), found.group(2))
        after = _beside(found.group(3), found.group(4))
        common = sorted(before & after)
        return BoardMove(text, common[0], None, "barrier") if common else None
    found = STEP_RE.fullmatch(text)
    if found:
        return BoardMove(text, found.group(1), found.group(2), "step")
    return None


def _beside(square: str, side: str) -> set[str]:
    """The two squares a barrier lies between (``b2n``: b2 and b3; ``c3e``: c3 and d3)."""
    file, rank = square[0], int(square[1:])
    if side == "n":
        return {square, f"{file}{rank + 1}"}
    return {square, f"{chr(ord(file) + 1)}{rank}"}


def squares_of(text: str) -> tuple[str, ...]:
    """The squares a move touches, to mark the last move or one awaiting confirmation."""
    move = read(text)
    if move is None:
        return ()
    if move.kind == "barrier":
        return (move.start,)
    if move.start.startswith("@"):
        return (move.to,)
    return (move.start, move.to)


@dataclass
class Entry:
    """A side's legal board moves, grouped by where they start."""

    moves: list[BoardMove] = field(default_factory=list)

    @classmethod
    def of(cls, position, side: str | None) -> Entry:
        if side is None or side not in position.to_act:
            return cls()
        found = []
        for move in position.legal_moves(side):
            board_move = read(position.move_text(move))
            if board_move is not None:
                found.append(board_move)
        return cls(found)

    @property
    def legal(self) -> dict[str, list[str]]:
        """start -> destinations, for ``board_context(legal=...)`` (placements left out)."""
        found: dict[str, list[str]] = {}
        for move in self.moves:
            if move.start != PLACE:
                goes = found.setdefault(move.start, [])
                if move.to and move.to not in goes:
                    goes.append(move.to)
        return found

    @property
    def placements(self) -> list[str]:
        """Squares a piece may be placed on straight away (Carge)."""
        return [m.to for m in self.moves if m.start == PLACE]

    def starts(self) -> set[str]:
        return {m.start for m in self.moves if m.start != PLACE}

    def between(self, start: str | None, to: str) -> list[BoardMove]:
        """The moves from ``start`` (None: a placement) to ``to``."""
        start = start or PLACE
        return [m for m in self.moves if m.start == start and m.to == to]

    def barrier_moves(self, start: str | None) -> list[BoardMove]:
        return [m for m in self.moves if m.start == start and m.kind == "barrier"]

    def has(self, text: str) -> bool:
        return any(m.text == text for m in self.moves)


@dataclass(frozen=True)
class Click:
    """What a click on ``square`` means, with ``start`` selected before it."""

    selected: str | None = None  # the start now selected
    to: str | None = None  # a destination shared by several moves: choose one
    move: str | None = None  # the one move the clicks name
    unknown: bool = False  # a click on nothing the player can move


def click(entry: Entry, start: str | None, square: str) -> Click:
    """Turn a click into a selection, a choice between moves, or one move."""
    if start and start not in entry.starts():
        start = None  # a stale or forged selection counts for nothing
    if start and square == start:
        return Click()  # a second click on the selected piece unselects it
    if start:
        moves = entry.between(start, square)
        if len(moves) == 1:
            return Click(move=moves[0].text)
        if moves:
            return Click(selected=start, to=square)
    if square in entry.starts():
        return Click(selected=square)
    moves = entry.between(None, square)
    if len(moves) == 1:
        return Click(move=moves[0].text)
    return Click(selected=start, unknown=True)
