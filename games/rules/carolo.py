"""Le Carolo (seed 000, read through rulings.md "Le Carolo").

Squares are ints ``rank * 8 + file`` (a1 = 0, h8 = 63); the board is a tuple of 64
piece codes: the piece type in the low bits, ``BLACK_BIT`` set for Black, 0 empty.
Move generation works on a list (the Carolo's slide clears its start square while it
searches), so the public methods copy the tuple and ``perft`` makes and unmakes moves
on one list.  For analysis, a position shows ``squares``, ``turn`` and ``ney``, and
``ended``, ``attraction_line`` and ``carolo_targets`` work on such a board.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Self

from .base import (
    BLACK,
    WHITE,
    Board,
    IllegalMove,
    InvalidFen,
    InvalidMove,
    InvalidOption,
    Message,
    Option,
    Outcome,
    Position,
    _,
    is_number,
    square_name,
)

EGO, CAROLO, BAYARD, HUBRIS, AYMON = 1, 2, 3, 4, 5
BLACK_BIT = 8  # a side is 0 (White) or BLACK_BIT; a piece is its type | its side
TYPE_MASK = 7

LETTERS = {EGO: "E", CAROLO: "C", BAYARD: "B", HUBRIS: "H", AYMON: "A"}
CODES = {letter: code for code, letter in LETTERS.items()}
CODES.update({letter.lower(): code | BLACK_BIT for code, letter in LETTERS.items()})
PIECE_NAMES = {"E": "Ego", "C": "Carolo", "B": "Bayard", "H": "Hubris", "A": "Aymon"}
CAPTURES = {EGO: BAYARD, BAYARD: AYMON, HUBRIS: BAYARD, CAROLO: HUBRIS}  # taker -> taken
MAX_COUNT = {EGO: 1, CAROLO: 1, BAYARD: 2, HUBRIS: 2, AYMON: 4}

START_FEN = "ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1"
NEY_SQUARES = {2: WHITE, 5: WHITE, 58: BLACK, 61: BLACK}  # c1, f1, c8, f8
NEY_BIT = [0] * 64
for _bit, _sq in enumerate(sorted(NEY_SQUARES)):
    NEY_BIT[_sq] = 1 << _bit


# -- words for players (built once; the engine's errors pick from them) ------------
PIECE_WORDS = {
    EGO: _("Ego"),
    CAROLO: _("Carolo"),
    BAYARD: _("Bayard"),
    HUBRIS: _("Hubris"),
    AYMON: _("Aymon"),
}
TAKE_REFUSALS = {  # the piece on a square it cannot take (CAPTURES, in words)
    EGO: _("the Ego can only take a Bayard"),
    CAROLO: _("the Carolo can only take a Hubris"),
    BAYARD: _("the Bayard can only take an Aymon"),
    HUBRIS: _("the Hubris can only take a Bayard"),
    AYMON: _("the Aymon never takes anything"),
}
ENDINGS = {  # (Outcome.reason, winner): the words of an ending found on the board
    ("mat", WHITE): _("White wins by mat: the white Carolo is next to the black Ego"),
    ("mat", BLACK): _("Black wins by mat: the black Carolo is next to the white Ego"),
    ("reconquest", WHITE): _("White wins by reconquest: the white Ego reached rank 8"),
    ("reconquest", BLACK): _("Black wins by reconquest: the black Ego reached rank 1"),
    ("no-moves", WHITE): _("White wins: black has no legal move"),
    ("no-moves", BLACK): _("Black wins: white has no legal move"),
}
WRONG_TURN = {  # keyed by the side to move
    WHITE: _("it is white's turn, not black's"),
    BLACK: _("it is black's turn, not white's"),
}


def _ending(winner: str, reason: str) -> Outcome:
    return Outcome(winner, reason, str(ENDINGS[reason, winner]))


def _ending_words(ending: Outcome) -> Message:
    """The words of an ending that ``outcome()`` found, to be translated."""
    return ENDINGS[ending.reason, ending.winner]


SQUARE_NAMES = tuple(square_name(sq % 8, sq // 8) for sq in range(64))  # a1, b1, ... h8


def _name(sq: int) -> str:
    return SQUARE_NAMES[sq]


def _side_name(side: int) -> str:
    return BLACK if side else WHITE


# -- precomputed geometry ---------------------------------------------------------
def _ray(sq: int, df: int, dr: int) -> tuple[int, ...]:
    f, r, out = sq % 8 + df, sq // 8 + dr, []
    while 0 <= f < 8 and 0 <= r < 8:
        out.append(r * 8 + f)
        f, r = f + df, r + dr
    return tuple(out)


ORTH_RAYS = tuple(
    tuple(_ray(sq, df, dr) for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))) for sq in range(64)
)
DIAG_RAYS = tuple(
    tuple(_ray(sq, df, dr) for df, dr in ((1, 1), (-1, 1), (1, -1), (-1, -1))) for sq in range(64)
)
NEIGHBOURS = tuple(tuple(ray[0] for ray in rays if ray) for rays in ORTH_RAYS)
ADJACENT = tuple(frozenset(n) for n in NEIGHBOURS)
RING3 = tuple(
    tuple(t for t in range(64) if max(abs(t % 8 - sq % 8), abs(t // 8 - sq // 8)) == 3)
    for sq in range(64)
)


# -- the rules, on a list of 64 codes ---------------------------------------------
def ended(b: list[int] | tuple[int, ...]) -> bool:
    """Whether the board shows mat or reconquest (the game ends before anyone moves)."""
    we, be = b.index(EGO), b.index(EGO | BLACK_BIT)
    if we >= 56 or be < 8:
        return True
    return b.index(CAROLO) in ADJACENT[be] or b.index(CAROLO | BLACK_BIT) in ADJACENT[we]


def attraction_line(b: list[int], ego: int, side: int) -> tuple[int, ...] | None:
    """The diagonal from ``side``'s Ego up to the attracting enemy Hubris (included), or None."""
    enemy_hubris = HUBRIS | (side ^ BLACK_BIT)
    for ray in DIAG_RAYS[ego]:
        for i, q in enumerate(ray):
            if b[q]:
                if i and b[q] == enemy_hubris:
                    return ray[: i + 1]
                break
    return None


def _hubris_targets(b: list[int], sq: int, side: int) -> list[int]:
    prey = BAYARD | (side ^ BLACK_BIT)
    out = []
    for ray in DIAG_RAYS[sq]:
        for q in ray:
            p = b[q]
            if p:
                if p == prey:
                    out.append(q)
                break
            out.append(q)
    return out


def _bayard_targets(b: list[int], sq: int, side: int, ney: int) -> list[int]:
    prey = AYMON | (side ^ BLACK_BIT)
    out = [t for t in RING3[sq] if not b[t] or b[t] == prey]
    if ney & NEY_BIT[sq]:
        forward = sq - 24 if side else sq + 24
        if forward in out:
            out.remove(forward)
    return out


def _ego_targets(b: list[int], sq: int, side: int, enemy_carolo: int) -> list[int]:
    prey = BAYARD | (side ^ BLACK_BIT)
    banned = ADJACENT[enemy_carolo]
    return [t for t in NEIGHBOURS[sq] if (not b[t] or b[t] == prey) and t not in banned]


def carolo_targets(b: list[int], start: int, side: int) -> set[int]:
    """Every end square of the Carolo's slide-and-bounce move from ``start`` (``b`` is a
    list, changed during the call and restored).

    A breadth-first search over the squares where the Carolo may bounce (start a new
    slide in any direction): the start square and every square where a slide ended
    against an Aymon or the edge.  Those squares are also ends; a slide stopped by
    any other piece ends on the square before it, or on it if it is an enemy Hubris.
    """
    enemy_hubris = HUBRIS | (side ^ BLACK_BIT)
    piece = b[start]
    b[start] = 0  # the start square counts as empty during the move
    ends = set()
    bounces = {start}
    todo = [start]
    for s in todo:  # todo grows while we walk it
        for ray in ORTH_RAYS[s]:
            t = s
            p = 0
            for q in ray:
                p = b[q]
                if p:
                    break
                t = q
            if not p or p & TYPE_MASK == AYMON:  # the edge or an Aymon: a bounce
                if t not in bounces:
                    bounces.add(t)
                    todo.append(t)
            else:
                if p == enemy_hubris:
                    ends.add(q)
                ends.add(t)
    b[start] = piece
    ends |= bounces
    ends.discard(start)
    return ends


def _attraction_moves(b: list[int], ego: int, side: int, line: tuple[int, ...]) -> list[tuple]:
    """Moves allowed under attraction: the Ego's slide, or an own Hubris interposing."""
    between = line[:-1]
    moves = [(ego, between[-1])]
    own_hubris = HUBRIS | side
    for sq in range(64):
        if b[sq] == own_hubris and (sq % 8 + sq // 8) % 2 == (ego % 8 + ego // 8) % 2:
            moves.extend((sq, t) for t in _hubris_targets(b, sq, side) if t in between)
    return moves


def _legal(b: list[int], side: int, ney: int) -> list[tuple[int, int]]:
    """Legal (from, to) pairs; the caller has checked that the game is not over."""
    ego = b.index(EGO | side)
    line = attraction_line(b, ego, side)
    if line is not None:
        return _attraction_moves(b, ego, side, line)
    moves = [(ego, t) for t in _ego_targets(b, ego, side, b.index(CAROLO | side ^ BLACK_BIT))]
    carolo = b.index(CAROLO | side)
    moves.extend((carolo, t) for t in carolo_targets(b, carolo, side))
    bayard, hubris, aymon = BAYARD | side, HUBRIS | side, AYMON | side
    aymons = []
    empties = []
    for sq, p in enumerate(b):
        if not p:
            empties.append(sq)
        elif p == bayard:
            moves.extend((sq, t) for t in _bayard_targets(b, sq, side, ney))
        elif p == hubris:
            moves.extend((sq, t) for t in _hubris_targets(b, sq, side))
        elif p == aymon:
            aymons.append(sq)
    moves.extend((a, t) for a in aymons for t in empties)
    return moves


def _count(b: list[int], side: int, ney: int) -> int:
    """``len(_legal(...))`` without listing the Aymon moves (bulk counting)."""
    ego = b.index(EGO | side)
    line = attraction_line(b, ego, side)
    if line is not None:
        return len(_attraction_moves(b, ego, side, line))
    n = len(_ego_targets(b, ego, side, b.index(CAROLO | side ^ BLACK_BIT)))
    n += len(carolo_targets(b, b.index(CAROLO | side), side))
    n += b.count(AYMON | side) * b.count(0)
    bayard, hubris = BAYARD | side, HUBRIS | side
    sq = -1
    for _i in range(b.count(bayard)):
        sq = b.index(bayard, sq + 1)
        n += len(_bayard_targets(b, sq, side, ney))
    sq = -1
    for _i in range(b.count(hubris)):
        sq = b.index(hubris, sq + 1)
        n += len(_hubris_targets(b, sq, side))
    return n


def _perft(b: list[int], side: int, ney: int, depth: int) -> int:
    """Leaf count, making and unmaking moves on ``b``; the last ply is only counted."""
    if ended(b):
        return 0
    if depth == 1:
        return _count(b, side, ney)
    other = side ^ BLACK_BIT
    total = 0
    for frm, to in _legal(b, side, ney):
        piece, taken = b[frm], b[to]
        b[to] = piece
        b[frm] = 0
        total += _perft(b, other, ney & ~(NEY_BIT[frm] | NEY_BIT[to]), depth - 1)
        b[frm] = piece
        b[to] = taken
    return total


# -- the public position ----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Move:
    """A move from one square to another; ``capture`` says whether it takes a piece."""

    frm: int
    to: int
    capture: bool = False

    def __str__(self) -> str:  # once per legal move in every answer: no calls inside
        return f"{SQUARE_NAMES[self.frm]}{'x' if self.capture else '-'}{SQUARE_NAMES[self.to]}"


@dataclass(frozen=True, slots=True)
class Attraction:
    """An enemy Hubris attracting the Ego of the side to move (square names)."""

    hubris: str  # the attracting enemy Hubris
    ego: str  # the attracted Ego
    landing: str  # where the attraction move takes the Ego (next to the Hubris)
    between: tuple[str, ...]  # the squares an own Hubris may interpose on


MOVE_RE = re.compile(r"([a-h][1-8])([-x])([a-h][1-8])")
NEY_RE = re.compile(r"(?:[a-h][1-8])+")


class CaroloPosition(Position):
    key = "carolo"
    title = "Le Carolo"
    options = (Option("fen", "", "a start position as a FEN (empty: the standard start)"),)
    piece_names = PIECE_NAMES

    def __init__(self, board: tuple[int, ...], side: int, ney: int, fullmove: int) -> None:
        self._board = board
        self._side = side
        self._ney = ney
        self._fullmove = fullmove
        self._pairs: list[tuple[int, int]] | None = None  # legal (from, to), once listed
        self._moves: list[Move] | None = None
        self._outcome: Outcome | None | bool = False  # False: not worked out yet
        self._placed: str | None = None  # the FEN's board field, once written

    # -- for analysis (the bots' evaluation) -------------------------------------
    @property
    def squares(self) -> tuple[int, ...]:
        """The 64 piece codes, a1 first (type | BLACK_BIT for Black, 0 empty)."""
        return self._board

    @property
    def turn(self) -> int:
        """The side to move as a code: 0 White, BLACK_BIT Black."""
        return self._side

    @property
    def ney(self) -> int:
        """The Bayards still bound by Ney's rule, as the NEY_BIT bits of their squares."""
        return self._ney

    # -- construction and notation ---------------------------------------------
    @classmethod
    def start(cls, options: Mapping[str, str] | None = None) -> Self:
        options = dict(options or {})
        fen = options.pop("fen", "").strip()
        if options:
            raise InvalidOption(
                _("unknown option {name!r} (Le Carolo has: fen)", name=sorted(options)[0])
            )
        if not fen:
            return cls.from_fen(START_FEN)
        try:
            position = cls.from_fen(fen)
        except InvalidFen as error:
            raise InvalidOption(_("fen: {error}", error=error.args[0])) from None
        ending = position.outcome()
        if ending is not None:
            raise InvalidOption(
                _("fen: the game is already over there ({ending})", ending=_ending_words(ending))
            )
        return position

    @classmethod
    def from_fen(cls, fen: str) -> Self:
        fields = fen.split()
        if len(fields) != 4:
            raise InvalidFen(
                _(
                    "a Carolo FEN has 4 fields (board, side, Ney squares, move number), "
                    "not {count}: {fen!r}",
                    count=len(fields),
                    fen=fen[:80],
                )
            )
        placement, side_field, ney_field, move_field = fields
        rows = placement.split("/")
        if len(rows) != 8:
            raise InvalidFen(
                _("the board needs 8 ranks separated by '/', not {count}", count=len(rows))
            )
        board = [0] * 64
        for i, row in enumerate(rows):
            rank = 7 - i
            file = 0
            for char in row:
                if char in "12345678":
                    file += int(char)
                elif char in CODES:
                    if file < 8:
                        board[rank * 8 + file] = CODES[char]
                    file += 1
                else:
                    raise InvalidFen(
                        _(
                            "rank {rank}: {char!r} is not a Carolo piece or a count",
                            rank=rank + 1,
                            char=char,
                        )
                    )
                if file > 8:
                    break
            if file != 8:
                raise InvalidFen(
                    _("rank {rank} ({row!r}) must cover 8 squares", rank=rank + 1, row=row)
                )
        for side in (0, BLACK_BIT):
            for kind, most in MAX_COUNT.items():
                count = board.count(kind | side)
                if kind in (EGO, CAROLO) and count != 1:
                    raise InvalidFen(_exactly_one(side, kind, count))
                if count > most:
                    raise InvalidFen(_too_many(side, kind, count, most))
            colours = [(sq % 8 + sq // 8) % 2 for sq in range(64) if board[sq] == HUBRIS | side]
            if len(colours) == 2 and colours[0] == colours[1]:
                raise InvalidFen(
                    _("black's two Hubris must stand on squares of different colours")
                    if side
                    else _("white's two Hubris must stand on squares of different colours")
                )
        if side_field not in ("w", "b"):
            raise InvalidFen(
                _("the side to move must be 'w' or 'b', not {side!r}", side=side_field)
            )
        ney = 0
        if ney_field != "-":
            if not NEY_RE.fullmatch(ney_field):
                raise InvalidFen(
                    _("the Ney field must be '-' or squares like c1f1, not {ney!r}", ney=ney_field)
                )
            for i in range(0, len(ney_field), 2):
                name = ney_field[i : i + 2]
                sq = "abcdefgh".index(name[0]) + 8 * (int(name[1]) - 1)
                owner = NEY_SQUARES.get(sq)
                if owner is None:
                    raise InvalidFen(
                        _("Ney square {square} is not a Bayard start (c1, f1, c8, f8)", square=name)
                    )
                if board[sq] != BAYARD | (BLACK_BIT if owner == BLACK else 0):
                    raise InvalidFen(
                        _("Ney square {square} does not hold a black Bayard", square=name)
                        if owner == BLACK
                        else _("Ney square {square} does not hold a white Bayard", square=name)
                    )
                if ney & NEY_BIT[sq]:
                    raise InvalidFen(_("Ney square {square} is given twice", square=name))
                ney |= NEY_BIT[sq]
        if not is_number(move_field) or int(move_field) < 1:
            raise InvalidFen(
                _(
                    "the move number must be a whole number from 1, not {number!r}",
                    number=move_field,
                )
            )
        return cls(tuple(board), BLACK_BIT if side_field == "b" else 0, ney, int(move_field))

    def fen(self) -> str:
        return (
            f"{self._placement()} {'b' if self._side else 'w'} {self._ney_text()} {self._fullmove}"
        )

    def _placement(self) -> str:
        if self._placed is None:
            self._placed = self._write_placement()
        return self._placed

    def _write_placement(self) -> str:
        rows = []
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for p in self._board[rank * 8 : rank * 8 + 8]:
                if p:
                    row += (str(empty) if empty else "") + _letter(p)
                    empty = 0
                else:
                    empty += 1
            rows.append(row + (str(empty) if empty else ""))
        return "/".join(rows)

    def _ney_text(self) -> str:
        squares = [_name(sq) for sq in sorted(NEY_SQUARES) if self._ney & NEY_BIT[sq]]
        return "".join(squares) or "-"

    # -- who acts and what they may do -----------------------------------------
    @property
    def side(self) -> str:
        """The side to move (even when the game is over)."""
        return _side_name(self._side)

    @property
    def to_act(self) -> tuple[str, ...]:
        return () if self.outcome() is not None else (self.side,)

    def legal_moves(self, side: str | None = None) -> list[Move]:
        if side is not None and side != self.side:
            return []
        if self._moves is None:
            board = self._board
            self._moves = [Move(f, t, bool(board[t])) for f, t in self._legal_pairs()]
        return list(self._moves)

    def _legal_pairs(self) -> list[tuple[int, int]]:
        if self._pairs is None:
            b = list(self._board)
            self._pairs = [] if ended(b) else _legal(b, self._side, self._ney)
        return self._pairs

    def play(self, move: Move) -> Self:
        b = list(self._board)
        b[move.to] = b[move.frm]
        b[move.frm] = 0
        ney = self._ney & ~(NEY_BIT[move.frm] | NEY_BIT[move.to])
        fullmove = self._fullmove + (1 if self._side else 0)
        return type(self)(tuple(b), self._side ^ BLACK_BIT, ney, fullmove)

    def move_text(self, move: Move) -> str:
        return str(move)

    def parse_move(self, text: str, side: str | None = None) -> Move:
        text = text.strip()
        found = MOVE_RE.fullmatch(text)
        if not found:
            raise InvalidMove(
                _("not a Carolo move: {text!r} (write it like d1-d7 or d1xg4)", text=text[:64])
            )
        if side is not None and side != self.side:
            raise IllegalMove(WRONG_TURN[self.side])
        frm, sep, to = found.groups()
        frm_sq = "abcdefgh".index(frm[0]) + 8 * (int(frm[1]) - 1)
        to_sq = "abcdefgh".index(to[0]) + 8 * (int(to[1]) - 1)
        # The pairs, not legal_moves(): a move made is checked without building them all.
        if (frm_sq, to_sq) in self._legal_pairs():
            move = Move(frm_sq, to_sq, bool(self._board[to_sq]))
            if (sep == "x") != move.capture:
                raise IllegalMove(_("{text} must be written {move}", text=text, move=str(move)))
            return move
        raise IllegalMove(_("{text}: {reason}", text=text, reason=self._why_illegal(frm_sq, to_sq)))

    def _why_illegal(self, frm: int, to: int) -> Message:
        """A short reason for a move that is not legal (only for error messages)."""
        ending = self.outcome()
        if ending is not None:
            return _("the game is over ({ending})", ending=_ending_words(ending))
        b, side = self._board, self._side
        piece = b[frm]
        if not piece:
            return _("there is no piece on {square}", square=_name(frm))
        if piece & BLACK_BIT != side:
            if side:
                return _("the piece on {square} is not black's", square=_name(frm))
            return _("the piece on {square} is not white's", square=_name(frm))
        kind = piece & TYPE_MASK
        pull = self.attraction()
        if pull is not None:
            move = f"{pull.ego}-{pull.landing}"
            between = [m for m in self.legal_moves() if b[m.frm] == HUBRIS | side]
            if not between:
                return _(
                    "attraction: the enemy Hubris on {hubris} attracts the Ego on {ego}; "
                    "only the Ego's move {move} is allowed",
                    hubris=pull.hubris,
                    ego=pull.ego,
                    move=move,
                )
            first, *others = sorted({_name(m.to) for m in between})
            squares: str | Message = first
            for square in others:
                squares = _("{squares} or {square}", squares=squares, square=square)
            return _(
                "attraction: the enemy Hubris on {hubris} attracts the Ego on {ego}; "
                "only the Ego's move {move} or a Hubris move onto {squares} are allowed",
                hubris=pull.hubris,
                ego=pull.ego,
                move=move,
                squares=squares,
            )
        if frm == to:
            return _("a move must leave its square")
        target = b[to]
        if target and target & BLACK_BIT == side:
            return _(
                "{square} holds your own {piece}",
                square=_name(to),
                piece=PIECE_WORDS[target & TYPE_MASK],
            )
        if target and CAPTURES.get(kind) != target & TYPE_MASK:
            return TAKE_REFUSALS[kind]
        df, dr = abs(to % 8 - frm % 8), abs(to // 8 - frm // 8)
        if kind == EGO:
            if df + dr != 1:
                return _("the Ego steps one square orthogonally")
            return _("the Ego may not step next to the enemy Carolo")
        if kind == BAYARD:
            if max(df, dr) != 3:
                return _("the Bayard jumps to a square exactly 3 squares away")
            return _(
                "Ney's rule: on its first move a Bayard may not jump straight 3 squares forward"
            )
        if kind == HUBRIS:
            if df != dr:
                return _("the Hubris moves diagonally")
            return _("the Hubris cannot pass other pieces")
        if kind == CAROLO:
            return _(
                "the Carolo cannot end there: it slides until it meets an obstacle, "
                "bouncing only off Aymons and the edge"
            )
        return _("not a legal move here")

    def attraction(self) -> Attraction | None:
        """The enemy Hubris that restricts this turn's moves, or None."""
        if self.outcome() is not None:
            return None
        ego = self._board.index(EGO | self._side)
        line = attraction_line(list(self._board), ego, self._side)
        if line is None:
            return None
        return Attraction(
            hubris=_name(line[-1]),
            ego=_name(ego),
            landing=_name(line[-2]),
            between=tuple(_name(sq) for sq in line[:-1]),
        )

    # -- endings -------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self._outcome is False:
            self._outcome = self._find_outcome()
        return self._outcome

    def _find_outcome(self) -> Outcome | None:
        b = self._board
        mover = self._side ^ BLACK_BIT  # who made the last move: wins a double ending
        egos = {0: b.index(EGO), BLACK_BIT: b.index(EGO | BLACK_BIT)}
        carolos = {0: b.index(CAROLO), BLACK_BIT: b.index(CAROLO | BLACK_BIT)}
        for side in (mover, mover ^ BLACK_BIT):
            if carolos[side] in ADJACENT[egos[side ^ BLACK_BIT]]:
                return _ending(_side_name(side), "mat")
        for side in (mover, mover ^ BLACK_BIT):
            if (egos[side] >= 56) if side == 0 else (egos[side] < 8):
                return _ending(_side_name(side), "reconquest")
        if not self._has_legal_move():
            return _ending(_side_name(mover), "no-moves")
        return None

    def _has_legal_move(self) -> bool:
        """Whether the side to move has a move; the game is not over on the board."""
        if self._pairs is not None:
            return bool(self._pairs)
        return _count(list(self._board), self._side, self._ney) > 0  # no listing needed

    def repetition_key(self) -> str:
        return f"{self._placement()} {'b' if self._side else 'w'} {self._ney_text()}"

    def repetition_outcome(self) -> Outcome:
        b = self._board
        white = b.index(EGO) // 8  # ranks from White's back rank
        black = 7 - b.index(EGO | BLACK_BIT) // 8
        if white == black:
            return Outcome(
                None,
                "repetition",
                "Draw by threefold repetition: both Egos are equally far from their back ranks",
            )
        win = WHITE if white > black else BLACK
        return Outcome(
            win,
            "arduo",
            f"{win.title()} wins by the Arduo rule: the position occurred three times "
            f"and the {win} Ego is further advanced",
        )

    # -- drawing and counting -------------------------------------------------
    def board(self) -> Board:
        pieces = {_name(sq): _letter(p) for sq, p in enumerate(self._board) if p}
        return Board(files=8, ranks=8, pieces=pieces)

    def perft(self, depth: int) -> int:
        if depth <= 0:
            return 1
        return _perft(list(self._board), self._side, self._ney, depth)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CaroloPosition) and self.fen() == other.fen()

    def __hash__(self) -> int:
        return hash(self.fen())

    def __repr__(self) -> str:
        return f"CaroloPosition.from_fen({self.fen()!r})"


def _exactly_one(side: int, kind: int, count: int) -> Message:
    """A FEN without exactly one Ego or Carolo of a side (only for error messages)."""
    piece = PIECE_WORDS[kind]
    if side:
        return _("black must have exactly one {piece}, not {count}", piece=piece, count=count)
    return _("white must have exactly one {piece}, not {count}", piece=piece, count=count)


def _too_many(side: int, kind: int, count: int, most: int) -> Message:
    """A FEN with more of a piece than a side may have (only for error messages)."""
    parts = {"count": count, "most": most}
    if side:
        templates = {
            BAYARD: _("black has {count} Bayards, at most {most} allowed", **parts),
            HUBRIS: _("black has {count} Hubris, at most {most} allowed", **parts),
            AYMON: _("black has {count} Aymons, at most {most} allowed", **parts),
        }
    else:
        templates = {
            BAYARD: _("white has {count} Bayards, at most {most} allowed", **parts),
            HUBRIS: _("white has {count} Hubris, at most {most} allowed", **parts),
            AYMON: _("white has {count} Aymons, at most {most} allowed", **parts),
        }
    return templates[kind]


def _letter(p: int) -> str:
    letter = LETTERS[p & TYPE_MASK]
    return letter.lower() if p & BLACK_BIT else letter
