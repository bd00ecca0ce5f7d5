"""Le Carge (Patrik Carpentier, 2008), as read by rulings.md.

A 5x5 board with barriers on the edges between squares; 8 pawns a side are
placed one at a time (phase 1), then moved (phase 2): a single pawn slides like
a rook and stacks on, captures or swaps with the first piece it meets; a stack
never moves, but its top pawn may step off it.  Optionally a pawn may move a
barrier on a side of its square, capturing whatever ends up walled in.

A square holds an int: 0 empty, 1 / -1 a White / Black single pawn, 2 / -2 a
White / Black stack; a side is 1 (White) or -1 (Black).  Squares and barrier
edges are numbered as in ``carge_layouts``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, ClassVar, NamedTuple, Self

from .base import (
    BLACK,
    WHITE,
    Board,
    InvalidFen,
    InvalidOption,
    Message,
    Option,
    Outcome,
    Position,
    RulesError,
    _,
    is_number,
    square_name,
)
from .carge_layouts import (
    EDGE_INDEX,
    EDGE_NAMES,
    MAX_BARRIERS,
    PRESETS,
    SIZE,
    SQUARE_EDGES,
    SQUARES,
    barrier_names,
    listed_barriers,
    parse_barriers,
    presets,
    random_layout,
    validate_layout,
)

PAWNS = 8
BARRIER_MOVES = 3
RANDOM_BARRIERS = 6  # the rulings' default size of a random layout
PERFT_TABLE_SIZE = 500_000  # subtree counts perft remembers (some 400 bytes each)

LETTERS = {1: "P", 2: "S", -1: "p", -2: "s"}
VALUES = {letter: value for value, letter in LETTERS.items()}
PIECE_NAMES = {"P": "pawn", "S": "stack"}
SIDE_NAMES = {1: "White", -1: "Black"}
SQUARE_NAMES = tuple(square_name(sq % SIZE, sq // SIZE) for sq in range(SQUARES))


def _effects() -> dict[tuple[int, int], tuple[int, int, bool]]:
    """(mover's square, target square) -> (mover's square after, target after, capture).

    The one statement of what landing on a square does, for slides and unstacks
    alike; a missing pair (an unstack onto a stack) is not allowed.
    """
    table = {}
    for s in (1, -1):
        for w in (0, s, -s, 2, -2):
            if w == 0:
                table[s, w], table[2 * s, w] = (0, s, False), (s, s, False)
            elif w == s:  # onto a friendly single pawn: a stack
                table[s, w], table[2 * s, w] = (0, 2 * s, False), (s, 2 * s, False)
            elif w == -s:  # onto an enemy single pawn: a capture
                table[s, w], table[2 * s, w] = (0, s, True), (s, s, True)
            else:  # a single pawn onto any stack: the two swap squares
                table[s, w] = (w, s, False)
    return table


EFFECTS = _effects()


def _steps() -> tuple[tuple[tuple[int, int] | None, ...], ...]:
    """square -> for north, east, south, west: (neighbour, edge between them) or None."""
    table = []
    for sq in range(SQUARES):
        file, rank = sq % SIZE, sq // SIZE
        steps: list[tuple[int, int] | None] = []
        for df, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            f, r = file + df, rank + dr
            if not (0 <= f < SIZE and 0 <= r < SIZE):
                steps.append(None)
                continue
            lo = min(sq, r * SIZE + f)  # the south or west square names the edge
            edge = EDGE_INDEX[SQUARE_NAMES[lo] + ("n" if dr else "e")]
            steps.append((r * SIZE + f, edge))
        table.append(tuple(steps))
    return tuple(table)


STEPS = _steps()
NEIGHBOURS = tuple(tuple(step[0] for step in steps if step) for steps in STEPS)


class Geometry(NamedTuple):
    """What a barrier mask means for moves, computed once per mask."""

    rays: tuple[tuple[tuple[int, ...], ...], ...]  # square -> its rook rays, nearest first
    closed: tuple[int, ...]  # squares with a barrier or the edge on all four sides
    shifts: tuple[tuple[tuple[int, int], ...], ...]  # square -> barrier moves (edge from, to)


@lru_cache(maxsize=4096)
def geometry(mask: int) -> Geometry:
    """The move tables of the barrier layout ``mask``."""
    rays = []
    for sq in range(SQUARES):
        square_rays = []
        for direction in range(4):
            ray, at = [], sq
            while (step := STEPS[at][direction]) is not None and not mask >> step[1] & 1:
                at = step[0]
                ray.append(at)
            if ray:
                square_rays.append(tuple(ray))
        rays.append(tuple(square_rays))
    closed = tuple(sq for sq in range(SQUARES) if all(mask >> e & 1 for e in SQUARE_EDGES[sq]))
    shifts = tuple(
        tuple((a, b) for a in sides if mask >> a & 1 for b in sides if not mask >> b & 1)
        for sides in SQUARE_EDGES
    )
    return Geometry(tuple(rays), closed, shifts)


def _ordinary_moves(board: Any, rays: Any, s: int) -> list[tuple[int, int, int, int, bool]]:
    """Slides and unstacks of side ``s`` as (from, to, from after, to after, capture)."""
    moves = []
    stack = 2 * s
    for f in range(SQUARES):
        v = board[f]
        if v == s:
            for ray in rays[f]:
                for t in ray:
                    w = board[t]
                    if w:
                        moves.append((f, t, *EFFECTS[s, w]))
                        break
                    moves.append((f, t, 0, s, False))
        elif v == stack:
            for t in NEIGHBOURS[f]:
                effect = EFFECTS.get((stack, board[t]))
                if effect:
                    moves.append((f, t, *effect))
    return moves


def _barrier_moves(board: Any, shifts: Any, s: int) -> list[tuple[int, int]]:
    """Barrier moves of side ``s``'s single pawns as (edge from, edge to)."""
    return [shift for f in range(SQUARES) if board[f] == s for shift in shifts[f]]


def count_moves(board: Any, geo: Geometry, s: int, may_shift: bool) -> int:
    """The number of legal moves of side ``s`` in phase 2, without listing them."""
    n = shifts = 0
    stack = 2 * s
    rays = geo.rays
    for f in range(SQUARES):
        v = board[f]
        if v == s:
            for ray in rays[f]:
                for t in ray:
                    n += 1
                    if board[t]:
                        break
            shifts += len(geo.shifts[f])
        elif v == stack:
            for t in NEIGHBOURS[f]:
                if -2 < board[t] < 2:
                    n += 1
    return n + shifts if n and may_shift else n


class CargeMove(NamedTuple):
    """``kind`` is "place", "move", "capture" or "barrier"; ``frm``/``to`` are squares,
    or for a barrier move the edges the barrier leaves and takes (``frm`` -1 for a
    placement)."""

    kind: str
    frm: int
    to: int


class CargePosition(Position):
    """A Le Carge position: board, barriers, side to move, pawns in hand (phase 1 while
    any are left) and barrier moves left (0,0 when the barrier rule is off)."""

    key: ClassVar[str] = "carge"
    title: ClassVar[str] = "Le Carge"
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "barriers",
            f"random:{RANDOM_BARRIERS}",
            "barrier layout: a preset ("
            + ", ".join(PRESETS)
            + f"), random:<0-{MAX_BARRIERS}>, or barriers such as b2n,c3e,d1n (- for none)",
        ),
        Option(
            "barrier_rule",
            "off",
            f"optional barrier rule: a pawn may move a barrier, {BARRIER_MOVES} times a player",
            ("on", "off"),
        ),
    )
    piece_names: ClassVar[Mapping[str, str]] = PIECE_NAMES

    __slots__ = ("_board", "_mask", "_side", "_hands", "_left", "_cache")

    _board: tuple[int, ...]
    _mask: int
    _side: int
    _hands: tuple[int, int]  # pawns in hand, White and Black
    _left: tuple[int, int]  # barrier moves left, White and Black
    _cache: list[Any]  # [ordinary moves, outcome], filled on first use

    @classmethod
    def _make(
        cls,
        board: tuple[int, ...],
        mask: int,
        side: int,
        hands: tuple[int, int],
        left: tuple[int, int],
    ) -> Self:
        pos = object.__new__(cls)
        for name, value in zip(
            cls.__slots__, (board, mask, side, hands, left, [None, None]), strict=True
        ):
            object.__setattr__(pos, name, value)
        return pos

    @staticmethod
    def presets() -> list[tuple[str, str, tuple[str, ...]]]:
        """The named barrier layouts as (key, English label, barriers)."""
        return presets()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a CargePosition cannot be changed; play() returns a new one")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("a CargePosition cannot be changed")

    # -- for analysis (the bots' evaluation) ---------------------------------------
    @property
    def squares(self) -> tuple[int, ...]:
        """The 25 squares, a1 first: 1 / -1 a White / Black pawn, 2 / -2 a stack, 0 empty."""
        return self._board

    @property
    def turn(self) -> int:
        """The side to move: 1 White, -1 Black."""
        return self._side

    @property
    def mask(self) -> int:
        """The barriers, one bit per edge (numbered as in ``carge_layouts``)."""
        return self._mask

    @property
    def hands(self) -> tuple[int, int]:
        """Pawns in hand, as (White, Black)."""
        return self._hands

    @property
    def state(self) -> tuple[Any, ...]:
        """Every field as one tuple: squares, mask, turn, hands, barrier moves left."""
        return (self._board, self._mask, self._side, self._hands, self._left)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CargePosition) and self.state == other.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return f"CargePosition({self.fen()!r})"

    # -- construction and notation -------------------------------------------------
    @classmethod
    def start(
        cls, options: Mapping[str, str] | None = None, rng: random.Random | None = None
    ) -> Self:
        """Phase 1 on an empty board; ``rng`` draws a random layout (default: the OS's
        secure source)."""
        chosen = {opt.name: opt.default for opt in cls.options}
        for name, value in (options or {}).items():
            if name not in chosen:
                known = ", ".join(chosen)
                raise InvalidOption(
                    _(
                        "unknown option {name!r} for Le Carge (known: {known})",
                        name=name,
                        known=known,
                    )
                )
            chosen[name] = value
        rule = chosen["barrier_rule"]
        if rule not in ("on", "off"):
            raise InvalidOption(_("barrier_rule must be on or off, not {rule!r}", rule=rule))
        mask = validate_layout(cls._layout(chosen["barriers"], rng), InvalidOption)
        left = BARRIER_MOVES if rule == "on" else 0
        return cls._make((0,) * SQUARES, mask, 1, (PAWNS, PAWNS), (left, left))

    @staticmethod
    def _layout(value: str, rng: random.Random | None) -> tuple[str, ...]:
        if value in PRESETS:
            return PRESETS[value][1]
        if value.startswith("random:"):
            count = value.removeprefix("random:")
            if not is_number(count):
                raise InvalidOption(
                    _("random layout needs a number of barriers, not {count!r}", count=count)
                )
            try:
                return random_layout(int(count), rng or random.SystemRandom())
            except RulesError as error:
                raise InvalidOption(error.args[0]) from None
        return listed_barriers(value)

    @classmethod
    def from_fen(cls, fen: str) -> Self:
        fields = fen.split()
        if len(fields) != 5:
            raise InvalidFen(
                _(
                    "a Carge FEN has 5 fields (ranks, side, barriers, pawns in hand,"
                    " barrier moves left), not {count}",
                    count=len(fields),
                )
            )
        ranks_text, side_text, barriers_text, hands_text, left_text = fields
        board = _read_ranks(ranks_text)
        if side_text not in ("w", "b"):
            raise InvalidFen(_("side to move must be w or b, not {side!r}", side=side_text))
        side = 1 if side_text == "w" else -1
        mask = 0 if barriers_text == "-" else parse_barriers(barriers_text.split(","), InvalidFen)
        hands = _read_pair(hands_text, "hands", PAWNS)
        left = _read_pair(left_text, "left", BARRIER_MOVES)
        for i, s in enumerate((1, -1)):
            on_board = sum(abs(v) for v in board if v * s > 0)
            if on_board + hands[i] > PAWNS:
                raise InvalidFen(_too_many_pawns(s, on_board, hands[i]))
        if hands != (0, 0):
            if any(abs(v) == 2 for v in board):
                raise InvalidFen(_("no stack can stand on the board while pawns are still in hand"))
            if hands[1] - hands[0] != (side == -1):
                raise InvalidFen(_hands_do_not_fit(side, hands_text))
            # during placement each player still has all the barrier moves the rule gives
            if left[0] != left[1] or left[0] not in (0, BARRIER_MOVES):
                raise InvalidFen(_("no barrier move can have been made while pawns are in hand"))
        return cls._make(tuple(board), mask, side, hands, left)

    def fen(self) -> str:
        barriers = ",".join(barrier_names(self._mask)) or "-"
        side = "w" if self._side == 1 else "b"
        return (
            f"{self._ranks()} {side} {barriers} {self._hands[0]},{self._hands[1]}"
            f" {self._left[0]},{self._left[1]}"
        )

    def _ranks(self) -> str:
        rows = []
        for rank in range(SIZE - 1, -1, -1):
            row, empty = "", 0
            for v in self._board[rank * SIZE : rank * SIZE + SIZE]:
                if v:
                    row += (str(empty) if empty else "") + LETTERS[v]
                    empty = 0
                else:
                    empty += 1
            rows.append(row + (str(empty) if empty else ""))
        return "/".join(rows)

    # -- who acts and what they may do -------------------------------------------
    @property
    def to_act(self) -> tuple[str, ...]:
        if self.outcome() is not None:
            return ()
        return (WHITE,) if self._side == 1 else (BLACK,)

    @property
    def phase(self) -> str:
        return "placement" if self._hands != (0, 0) else "move"

    @property
    def barrier_moves_left(self) -> tuple[int, int]:
        """How many barrier moves White and Black may still make (0, 0 without the rule)."""
        return self._left

    def _ordinary(self) -> list[tuple[int, int, int, int, bool]]:
        if self._cache[0] is None:
            rays = geometry(self._mask).rays
            self._cache[0] = _ordinary_moves(self._board, rays, self._side)
        return self._cache[0]

    def legal_moves(self, side: str | None = None) -> list[CargeMove]:
        if self.outcome() is not None or side not in (None, *self.to_act):
            return []
        s = self._side
        if self._hands[0 if s == 1 else 1]:
            return [CargeMove("place", -1, sq) for sq in range(SQUARES) if not self._board[sq]]
        moves = [
            CargeMove("capture" if capture else "move", f, t)
            for f, t, _f_after, _t_after, capture in self._ordinary()
        ]
        if moves and self._left[0 if s == 1 else 1]:
            moves += [
                CargeMove("barrier", a, b)
                for a, b in _barrier_moves(self._board, geometry(self._mask).shifts, s)
            ]
        return moves

    def play(self, move: CargeMove) -> Self:
        board = list(self._board)
        s, mask, hands, left = self._side, self._mask, self._hands, self._left
        me = 0 if s == 1 else 1
        if move.kind == "place":
            board[move.to] = s
            hands = (hands[0] - 1, hands[1]) if me == 0 else (hands[0], hands[1] - 1)
        elif move.kind == "barrier":
            mask ^= (1 << move.frm) | (1 << move.to)
            for sq in geometry(mask).closed:
                board[sq] = 0
            left = (left[0] - 1, left[1]) if me == 0 else (left[0], left[1] - 1)
        else:
            board[move.frm], board[move.to], _capture = EFFECTS[board[move.frm], board[move.to]]
        return self._make(tuple(board), mask, -s, hands, left)

    def move_text(self, move: CargeMove) -> str:
        if move.kind == "place":
            return f"@{SQUARE_NAMES[move.to]}"
        if move.kind == "barrier":
            return f"{EDGE_NAMES[move.frm]}>{EDGE_NAMES[move.to]}"
        sep = "x" if move.kind == "capture" else "-"
        return f"{SQUARE_NAMES[move.frm]}{sep}{SQUARE_NAMES[move.to]}"

    # -- endings ------------------------------------------------------------------
    def totals(self) -> tuple[int, int]:
        """Pawns each side has on the board and in hand, as (White, Black)."""
        white = sum(v for v in self._board if v > 0) + self._hands[0]
        black = -sum(v for v in self._board if v < 0) + self._hands[1]
        return white, black

    def outcome(self) -> Outcome | None:
        if self._cache[1] is None:
            self._cache[1] = (self._find_outcome(),)
        return self._cache[1][0]

    def _find_outcome(self) -> Outcome | None:
        white, black = self.totals()
        if white <= 1 and black <= 1:
            return Outcome(
                None, "annihilation-draw", "Draw: both players are left with one pawn or none"
            )
        for total, loser in ((white, 1), (black, -1)):
            if total <= 1:
                return Outcome(
                    WHITE if loser == -1 else BLACK,
                    "annihilation",
                    f"{SIDE_NAMES[-loser]} wins: {SIDE_NAMES[loser]} is left with"
                    f" {'one pawn' if total else 'no pawn'}",
                )
        if self.phase == "move" and not self._ordinary():
            s = self._side
            return Outcome(
                WHITE if s == -1 else BLACK,
                "no-moves",
                f"{SIDE_NAMES[-s]} wins: {SIDE_NAMES[s]} has no move left",
            )
        return None

    def repetition_key(self) -> str | None:
        if self.phase != "move":
            return None
        side = "w" if self._side == 1 else "b"
        barriers = ",".join(barrier_names(self._mask)) or "-"
        return f"{self._ranks()} {side} {barriers} {self._left[0]},{self._left[1]}"

    # -- drawing ------------------------------------------------------------------
    def board(self) -> Board:
        return Board(
            files=SIZE,
            ranks=SIZE,
            pieces={SQUARE_NAMES[sq]: LETTERS[v] for sq, v in enumerate(self._board) if v},
            barriers=frozenset(barrier_names(self._mask)),
            hands={WHITE: {"P": self._hands[0]}, BLACK: {"p": self._hands[1]}},
        )

    # -- counting -----------------------------------------------------------------
    def perft(self, depth: int) -> int:
        """Leaf count by make/unmake on one list, counting the last ply without playing
        it, with a table of subtrees of depth 2 or more (move orders transpose a lot)."""
        if depth <= 0:
            return 1
        board = list(self._board)
        totals = list(self.totals())
        seen: dict[tuple[Any, ...], int] = {}

        def node(
            s: int, mask: int, hands: tuple[int, int], left: tuple[int, int], depth: int
        ) -> int:
            if totals[0] <= 1 or totals[1] <= 1:
                return 0
            me = 0 if s == 1 else 1
            if hands[me] and depth <= hands[0] + hands[1]:
                # placements only: nothing is captured, nothing can end the game
                count = 1
                for i in range(depth):
                    count *= board.count(0) - i
                return count
            if depth >= 2:
                key = (tuple(board), s, mask, hands, left, depth)
                count = seen.get(key)
                if count is None:
                    count = expand(s, mask, hands, left, depth)
                    if len(seen) < PERFT_TABLE_SIZE:
                        seen[key] = count
                return count
            return expand(s, mask, hands, left, depth)

        def expand(
            s: int, mask: int, hands: tuple[int, int], left: tuple[int, int], depth: int
        ) -> int:
            me = 0 if s == 1 else 1
            count = 0
            if hands[me]:
                after = (hands[0] - 1, hands[1]) if me == 0 else (hands[0], hands[1] - 1)
                for sq in range(SQUARES):
                    if not board[sq]:
                        board[sq] = s
                        count += node(-s, mask, after, left, depth - 1)
                        board[sq] = 0
                return count
            geo = geometry(mask)
            may_shift = left[me] > 0
            if depth == 1:
                return count_moves(board, geo, s, may_shift)
            moves = _ordinary_moves(board, geo.rays, s)
            them = 1 - me
            for f, t, nf, nt, capture in moves:
                old_f, old_t = board[f], board[t]
                board[f], board[t] = nf, nt
                if capture:
                    totals[them] -= 1
                count += node(-s, mask, hands, left, depth - 1)
                board[f], board[t] = old_f, old_t
                if capture:
                    totals[them] += 1
            if moves and may_shift:
                after = (left[0] - 1, left[1]) if me == 0 else (left[0], left[1] - 1)
                for a, b in _barrier_moves(board, geo.shifts, s):
                    moved = mask ^ (1 << a) ^ (1 << b)
                    taken = [(sq, board[sq]) for sq in geometry(moved).closed if board[sq]]
                    for sq, v in taken:
                        board[sq] = 0
                        totals[0 if v > 0 else 1] -= abs(v)
                    count += node(-s, moved, hands, after, depth - 1)
                    for sq, v in taken:
                        board[sq] = v
                        totals[0 if v > 0 else 1] += abs(v)
            return count

        return node(self._side, self._mask, self._hands, self._left, depth)


def _read_ranks(text: str) -> list[int]:
    rows = text.split("/")
    if len(rows) != SIZE:
        raise InvalidFen(
            _(
                "the board needs {size} ranks separated by /, not {count}",
                size=SIZE,
                count=len(rows),
            )
        )
    board = [0] * SQUARES
    for i, row in enumerate(rows):
        rank = SIZE - 1 - i
        file = 0
        for char in row:
            if char in VALUES:
                if file < SIZE:
                    board[rank * SIZE + file] = VALUES[char]
                file += 1
            elif char in "12345":
                file += int(char)
            else:
                raise InvalidFen(
                    _(
                        "unknown character {char!r} in rank {rank} (use P, S, p, s, 1-5)",
                        char=char,
                        rank=rank + 1,
                    )
                )
        if file != SIZE:
            raise InvalidFen(
                _(
                    "rank {rank} ({row!r}) does not hold exactly {size} squares",
                    rank=rank + 1,
                    row=row,
                    size=SIZE,
                )
            )
    return board


def _read_pair(text: str, what: str, most: int) -> tuple[int, int]:
    """A White,Black pair of the FEN: ``what`` is "hands" (pawns in hand) or "left"
    (barrier moves left)."""
    white, comma, black = text.partition(",")
    if not (comma and is_number(white) and is_number(black)):
        if what == "hands":
            message = _(
                "pawns in hand must be written White,Black such as {most},{most}, not {text!r}",
                most=most,
                text=text,
            )
        else:
            message = _(
                "barrier moves left must be written White,Black such as {most},{most},"
                " not {text!r}",
                most=most,
                text=text,
            )
        raise InvalidFen(message)
    pair = int(white), int(black)
    if max(pair) > most:
        if what == "hands":
            message = _("pawns in hand cannot exceed {most}, not {text}", most=most, text=text)
        else:
            message = _("barrier moves left cannot exceed {most}, not {text}", most=most, text=text)
        raise InvalidFen(message)
    return pair


def _too_many_pawns(s: int, on_board: int, in_hand: int) -> Message:
    """Why a FEN gives side ``s`` more than its pawns (only built when raising)."""
    if s == 1:
        return _(
            "White has too many pawns: {board} on the board and {hand} in hand,"
            " at most {most} in all",
            board=on_board,
            hand=in_hand,
            most=PAWNS,
        )
    return _(
        "Black has too many pawns: {board} on the board and {hand} in hand, at most {most} in all",
        board=on_board,
        hand=in_hand,
        most=PAWNS,
    )


def _hands_do_not_fit(side: int, hands_text: str) -> Message:
    """Why the pawns in hand of a FEN do not fit side ``side`` placing next."""
    if side == 1:
        return _(
            "pawns in hand {hands} do not fit White placing next"
            " (White places first, then the players alternate)",
            hands=hands_text,
        )
    return _(
        "pawns in hand {hands} do not fit Black placing next"
        " (White places first, then the players alternate)",
        hands=hands_text,
    )
