"""Rococo: seven capture styles on a 10x10 board with an edge ring (rulings.md).

FEN and move text follow vchess, so games move between the two sites:
``<ranks 10..1> <w|b> <plies played> <last swap or ->`` and ``from-to[xcaps][:kind]``.
Moves are ``RococoMove`` values on the engine's internal square indices; only
their text (``move_text``) leaves the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, NamedTuple, Self

from . import rococo_board as rb
from .base import (
    BLACK,
    WHITE,
    Board,
    InvalidFen,
    InvalidOption,
    Outcome,
    Position,
    _,
    is_number,
    square_name,
)

START_FEN = "91/1rqnbknqm1/1pppppppp1/91/91/91/91/1PPPPPPPP1/1MQNBKNQR1/91 w 0 -"

LETTER_TYPE = {"p": rb.PAWN, "r": rb.SWAPPER, "n": rb.LEAPER, "b": rb.CHAMELEON}
LETTER_TYPE |= {"q": rb.PUSHME, "m": rb.IMMOBILIZER, "k": rb.KING}
TYPE_LETTER = {t: letter for letter, t in LETTER_TYPE.items()}

PIECE_NAMES: Mapping[str, str] = {
    "P": "cannon pawn",
    "R": "swapper",
    "N": "long leaper",
    "B": "chameleon",
    "Q": "pushme-pullyu",
    "M": "immobilizer",
    "K": "king",
}

KIND_SUFFIX = {rb.NORMAL: "", rb.SWAP: ":swap", rb.KAMIKAZE: ":kamikaze", rb.SUICIDE: ":suicide"}


class RococoMove(NamedTuple):
    """A move on internal square indices (see ``rococo_board``)."""

    frm: int
    to: int
    captured: tuple[int, ...]  # sorted by file, then rank
    kind: int  # rococo_board.NORMAL, SWAP, KAMIKAZE or SUICIDE


def _name(sq: int) -> str:
    return square_name(rb.file_of(sq), rb.rank_of(sq))


def _square(text: str) -> int:
    """A square name such as ``e10`` to an index; ValueError if it is not one."""
    digits = text[1:]
    if len(text) < 2 or text[0] not in "abcdefghij" or not is_number(digits):
        raise ValueError(text)
    rank = int(digits)
    if not 1 <= rank <= 10 or digits[0] == "0":
        raise ValueError(text)
    return rb.index("abcdefghij".index(text[0]), rank - 1)


EDGE_SQUARES = frozenset(_name(sq) for sq in rb.SQUARES if rb.EDGE[sq])


class RococoPosition(Position):
    key = "rococo"
    title = "Rococo"
    piece_names: ClassVar[Mapping[str, str]] = PIECE_NAMES

    __slots__ = ("_board", "_side", "_plies", "_swap", "_kings", "_moves")

    def __init__(
        self,
        board: tuple[int, ...],
        side: int,
        plies: int,
        swap: tuple[int, int] | None,
        kings: tuple[int, int],
    ) -> None:
        self._board = board
        self._side = side  # 0 White, 1 Black
        self._plies = plies
        self._swap = swap  # the swap just played (from, to), or None
        self._kings = kings  # king squares, 0 for a king that is gone
        self._moves: list[RococoMove] | None = None

    # -- for analysis (the bots' evaluation) -------------------------------------
    @property
    def squares(self) -> tuple[int, ...]:
        """The 144 squares by ``rococo_board`` index: type | BLACK_BIT, EMPTY or OFF."""
        return self._board

    @property
    def turn(self) -> int:
        """The side to move: 0 White, 1 Black."""
        return self._side

    @property
    def swap(self) -> tuple[int, int] | None:
        """The swap just played as (from, to), which may not be swapped back; or None."""
        return self._swap

    @property
    def kings(self) -> tuple[int, int]:
        """The White and Black king squares, 0 for a king that is gone."""
        return self._kings

    # -- construction and notation -------------------------------------------------
    @classmethod
    def start(cls, options: Mapping[str, str] | None = None) -> Self:
        if options:
            raise InvalidOption(_("Rococo has no options (got {names})", names=", ".join(options)))
        return cls.from_fen(START_FEN)

    @classmethod
    def from_fen(cls, fen: str) -> Self:
        parts = fen.split()
        if len(parts) != 4:
            raise InvalidFen(_("a Rococo FEN has 4 fields: board, side, plies, last swap"))
        rows = parts[0].split("/")
        if len(rows) != 10:
            raise InvalidFen(_("the board needs 10 ranks, not {count}", count=len(rows)))
        board = [rb.OFF] * 144
        for sq in rb.SQUARES:
            board[sq] = rb.EMPTY
        kings = [0, 0]
        for row_no, row in enumerate(rows):
            rank = 9 - row_no
            file = 0
            for char in row:
                if char in "0123456789":
                    file += int(char)
                    continue
                kind = LETTER_TYPE.get(char.lower())
                if kind is None:
                    raise InvalidFen(
                        _("unknown piece letter {char!r} on rank {rank}", char=char, rank=rank + 1)
                    )
                if file >= 10:
                    raise InvalidFen(_("rank {rank} has more than 10 squares", rank=rank + 1))
                side = 0 if char.isupper() else 1
                sq = rb.index(file, rank)
                if kind == rb.KING:
                    if kings[side]:
                        raise InvalidFen(
                            _("White has two kings") if side == 0 else _("Black has two kings")
                        )
                    kings[side] = sq
                board[sq] = kind | (rb.BLACK_BIT if side else 0)
                file += 1
            if file != 10:
                raise InvalidFen(
                    _("rank {rank} should have 10 squares, not {count}", rank=rank + 1, count=file)
                )
        if parts[1] not in ("w", "b"):
            raise InvalidFen(_("side to move must be w or b, not {side!r}", side=parts[1]))
        if not is_number(parts[2]):
            raise InvalidFen(_("plies played must be a whole number, not {text!r}", text=parts[2]))
        swap = None
        if parts[3] != "-":
            swap = _parse_swap(parts[3])
        return cls(tuple(board), 0 if parts[1] == "w" else 1, int(parts[2]), swap, tuple(kings))

    def fen(self) -> str:
        rows = []
        b = self._board
        for rank in range(9, -1, -1):
            row = ""
            empty = 0
            for file in range(10):
                v = b[rb.index(file, rank)]
                if v == rb.EMPTY:
                    empty += 1
                    continue
                if empty:
                    row += _empty_run(empty)
                    empty = 0
                letter = TYPE_LETTER[v & 7]
                row += letter if v & rb.BLACK_BIT else letter.upper()
            if empty:
                row += _empty_run(empty)
            rows.append(row)
        swap = "-" if self._swap is None else _name(self._swap[0]) + _name(self._swap[1])
        return f"{'/'.join(rows)} {'wb'[self._side]} {self._plies} {swap}"

    # -- who acts and what they may do -------------------------------------------
    @property
    def to_act(self) -> tuple[str, ...]:
        if not self._legal():
            return ()
        return (WHITE,) if self._side == 0 else (BLACK,)

    def legal_moves(self, side: str | None = None) -> list[RococoMove]:
        if side is not None and side != (WHITE, BLACK)[self._side]:
            return []
        return list(self._legal())

    def _legal(self) -> list[RococoMove]:
        if self._moves is None:
            found = rb.legal_moves(list(self._board), self._side, self._kings, self._swap)
            self._moves = [RococoMove(*m) for m in found]
        return self._moves

    def play(self, move: RococoMove) -> Self:
        board = list(self._board)
        kings = rb.kings_after(self._kings, board, move)
        rb.make(board, move)
        swap = (move[0], move[1]) if move[3] == rb.SWAP else None
        return type(self)(tuple(board), 1 - self._side, self._plies + 1, swap, kings)

    def move_text(self, move: RococoMove) -> str:
        frm, to, captured, kind = move
        text = f"{_name(frm)}-{_name(to)}"
        if captured:
            text += "x" + ",".join(_name(sq) for sq in captured)
        return text + KIND_SUFFIX[kind]

    # -- endings ------------------------------------------------------------------
    def in_check(self) -> bool:
        """Is the side to move's king attacked?"""
        king = self._kings[self._side]
        return bool(king) and rb.attacked(list(self._board), king, 1 - self._side)

    def outcome(self) -> Outcome | None:
        if self._legal():
            return None
        if self.in_check():
            winner = (BLACK, WHITE)[self._side]
            return Outcome(winner, "checkmate", f"{winner.capitalize()} wins by checkmate")
        return Outcome(None, "stalemate", "Draw by stalemate")

    def repetition_key(self) -> str:
        board, side, _plies, swap = self.fen().split()
        return f"{board} {side} {swap}"

    # -- drawing ------------------------------------------------------------------
    def board(self) -> Board:
        pieces = {}
        for sq in rb.SQUARES:
            v = self._board[sq]
            if v:
                letter = TYPE_LETTER[v & 7]
                pieces[_name(sq)] = letter if v & rb.BLACK_BIT else letter.upper()
        return Board(files=10, ranks=10, pieces=pieces, edge=EDGE_SQUARES)

    # -- counting -----------------------------------------------------------------
    def perft(self, depth: int) -> int:
        """As ``Position.perft``, on one mutable board (no positions built)."""
        if depth <= 0:
            return 1
        return rb.perft(list(self._board), self._side, self._kings, self._swap, depth)


def _empty_run(count: int) -> str:
    # vchess writes a run of 10 empty squares as "91".
    return str(count) if count <= 9 else "9" + str(count - 9)


def _parse_swap(text: str) -> tuple[int, int]:
    for cut in (2, 3):
        try:
            return _square(text[:cut]), _square(text[cut:])
        except ValueError:
            continue
    raise InvalidFen(
        _("last swap must be '-' or two squares such as f9e9, not {text!r}", text=text)
    )
