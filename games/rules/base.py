"""The one interface every game engine implements.

A game is a ``Position`` subclass: an immutable value that knows its FEN, who may
act, its legal moves, and what applying a move gives.  Moves are per-game value
objects (hashable); their text form is the only thing that crosses into the site.

Special cases carried by the same interface:

* phases (Carge placement, Shuuro recruitment/plinths/deployment/fight) are just
  positions whose ``phase`` says which one they are;
* simultaneous secret actions: ``to_act`` holds both sides, ``legal_moves(side)``
  and ``parse_move(text, side)`` take the acting side, ``is_secret`` tells the
  site to hide those moves from the opponent, ``view_fen(side)`` is the FEN a
  given side may see;
* chance: when ``to_act == (CHANCE,)`` the legal moves are the equally likely
  outcomes of a die roll.  The engine never rolls; the caller picks one (with a
  secure random source) and records it as a move, so games replay exactly.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

WHITE = "white"
BLACK = "black"
CHANCE = "chance"
SIDES = (WHITE, BLACK)

FILES = "abcdefghijkl"


class Message:
    """Words for players: an English template and its named parts.

    The engines know no gettext. ``str()`` gives the English text (the command
    line, the logs); the site passes its own translation function to
    ``render``, which translates the template and every part that is itself a
    ``Message``. Other parts (squares, move text, numbers) are set in as they
    are, never read as templates. Engines write ``_("… {part} …", part=…)``
    with ``_`` this class, so that ``makemessages`` collects the templates.
    """

    __slots__ = ("template", "parts")

    def __init__(self, template: str, /, **parts: object) -> None:
        self.template = template
        self.parts = parts

    def render(self, translate: Callable[[str], str]) -> str:
        parts = {
            name: value.render(translate) if isinstance(value, Message) else value
            for name, value in self.parts.items()
        }
        return translate(self.template).format(**parts)

    def __str__(self) -> str:
        return self.render(str)

    def __repr__(self) -> str:
        return f"Message({str(self)!r})"


_ = Message


class RulesError(ValueError):
    """Base class of every error the engines raise: its message a ``Message`` or plain text."""

    def render(self, translate: Callable[[str], str]) -> str:
        """The message in the words ``translate`` gives its templates."""
        message = self.args[0] if self.args else ""
        return message.render(translate) if isinstance(message, Message) else str(message)


class InvalidFen(RulesError):
    """A FEN string that cannot be read."""


class InvalidMove(RulesError):
    """Move text that is not well formed."""


class IllegalMove(RulesError):
    """A well-formed move that is not legal in the position."""


class InvalidOption(RulesError):
    """A start option that is unknown or has a bad value."""


def opponent(side: str) -> str:
    return BLACK if side == WHITE else WHITE


def is_number(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits: ``str.isdigit`` also takes
    ``²`` (which ``int`` refuses) and other scripts' digits."""
    return text.isascii() and text.isdigit()


def square_name(file: int, rank: int) -> str:
    """0-based file and rank to a name such as ``c1`` or ``j10``."""
    return f"{FILES[file]}{rank + 1}"


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` is WHITE, BLACK or None for a draw."""

    winner: str | None
    reason: str  # a short key: "mat", "checkmate", "stalemate", "repetition", ...
    text: str  # the reason in words, for players


@dataclass(frozen=True)
class Option:
    """A start option, as given on the command line (``name=value``)."""

    name: str
    default: str
    help: str
    choices: tuple[str, ...] | None = None  # None: free text, checked by start()

    @property
    def is_switch(self) -> bool:
        """Turned on or off: a checkbox on the challenge form, true/false in the API."""
        return self.choices == ("on", "off")


@dataclass(frozen=True)
class Board:
    """What a renderer needs to draw a position (no rules in here)."""

    files: int
    ranks: int
    pieces: Mapping[str, str]  # square -> FEN letter, upper case White
    plinths: frozenset[str] = frozenset()  # Shuuro
    barriers: frozenset[str] = frozenset()  # Carge, as "b2n" / "c3e"
    edge: frozenset[str] = frozenset()  # Rococo's edge ring
    hands: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # side -> letter -> count


class Position(ABC):
    """An immutable game position.  Subclasses are registered by ``key``."""

    key: ClassVar[str]  # "carolo", "carge", "rococo", "shuuro", "shuuro-mini"
    title: ClassVar[str]
    options: ClassVar[tuple[Option, ...]] = ()
    piece_names: ClassVar[Mapping[str, str]]  # White's FEN letter -> the piece's English name

    # -- construction and notation -------------------------------------------------
    @classmethod
    @abstractmethod
    def start(cls, options: Mapping[str, str] | None = None) -> Self:
        """The start position for these options; InvalidOption on a bad one."""

    @classmethod
    @abstractmethod
    def from_fen(cls, fen: str) -> Self:
        """Read a FEN; InvalidFen with a clear message on anything malformed."""

    @abstractmethod
    def fen(self) -> str:
        """The full FEN, including anything hidden from one side."""

    def view_fen(self, side: str | None) -> str:
        """The FEN as ``side`` (None: a spectator) may see it."""
        return self.fen()

    # -- who acts and what they may do -------------------------------------------
    @property
    @abstractmethod
    def to_act(self) -> tuple[str, ...]:
        """Sides that may act now: one side, both (simultaneous), (CHANCE,), or ()."""

    @property
    def phase(self) -> str:
        return "play"

    @property
    def is_secret(self) -> bool:
        """Moves made now stay hidden from the opponent until this phase ends."""
        return False

    @abstractmethod
    def legal_moves(self, side: str | None = None) -> list[Any]:
        """Legal moves of ``side`` (None: of every side in ``to_act``).

        Empty when the game is over by ``outcome()``.
        """

    @abstractmethod
    def play(self, move: Any) -> Self:
        """The position after a legal move (not re-checked for legality)."""

    @abstractmethod
    def move_text(self, move: Any) -> str:
        """The move in the game's notation (see rulings.md)."""

    def parse_move(self, text: str, side: str | None = None) -> Any:
        """The legal move written ``text``; InvalidMove or IllegalMove otherwise."""
        text = text.strip()
        if not text or len(text) > 64:
            raise InvalidMove(_("not a move: {text!r}", text=text[:64]))
        for move in self.legal_moves(side):
            if self.move_text(move) == text:
                return move
        raise IllegalMove(_("{text} is not a legal move here", text=text))

    # -- endings ------------------------------------------------------------------
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The ending this position shows by itself (not counting history)."""

    def repetition_key(self) -> str | None:
        """What must repeat for a repetition rule (None: no rule in this phase)."""
        return None

    def can_checkmate(self, side: str) -> bool:
        """False when ``side`` could never win by play, whatever the other does: a
        player who runs out of time against it then draws (FIDE 6.9)."""
        return True

    def repetition_outcome(self) -> Outcome:
        """What a threefold repetition of this position means."""
        return Outcome(None, "repetition", "Draw by threefold repetition")

    # True while history_outcome reads nothing of past positions but their
    # repetition keys: a caller may then pass, before the last position, only the
    # start and the past positions that share the last one's key.
    HISTORY_KEYS_ONLY = True

    @classmethod
    def history_outcome(cls, history: Sequence[Self]) -> Outcome | None:
        """The ending of a game whose positions, start first, are ``history``.

        Position endings first, then the threefold-repetition rule; games with
        more history rules (the 50-move rule) extend this, and set
        HISTORY_KEYS_ONLY to False.
        """
        last = history[-1]
        found = last.outcome()
        if found is not None:
            return found
        key = last.repetition_key()
        if key is not None and sum(1 for p in history if p.repetition_key() == key) >= 3:
            return last.repetition_outcome()
        return None

    # -- drawing ------------------------------------------------------------------
    @abstractmethod
    def board(self) -> Board:
        """Pieces and board features, for renderers."""

    # -- counting -----------------------------------------------------------------
    def perft(self, depth: int) -> int:
        """Leaf nodes of the legal-move tree (history rules ignored)."""
        if depth <= 0:
            return 1
        moves = self.legal_moves()
        if depth == 1:
            return len(moves)
        return sum(self.play(m).perft(depth - 1) for m in moves)

    def divide(self, depth: int) -> list[tuple[str, int]]:
        rows = [(self.move_text(m), self.play(m).perft(depth - 1)) for m in self.legal_moves()]
        return sorted(rows)
