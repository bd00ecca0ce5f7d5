"""Shuuro's deployment and fight on a mutable board, built for speed.

``Engine`` holds one position in plain lists and ints and changes it in place
(``make`` / ``unmake``); ``ShuuroPosition`` wraps an immutable snapshot of it.

Squares are ints ``rank * width + file`` (0-based).  Pieces are ints: type
codes ``PAWN..KING`` (1..6), positive for White, negative for Black.  Sides are
``+1`` (White) and ``-1`` (Black).

Moves are ints:

* fight move: ``from | to << 8 | promotion type << 16 | flag << 20`` with flag
  ``DOUBLE`` (a pawn's double step) or ``EN_PASSANT``;
* placement: ``PLACE | type << 8 | to``;
* first-player roll (chance): ``FIRST | 0`` (White goes first) or ``FIRST | 1``.
"""

from __future__ import annotations

from functools import cache, lru_cache

from .base import FILES

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
LETTERS = " PNBRQK"  # type code -> upper-case FEN letter
TYPE_OF = {letter: code for code, letter in enumerate(LETTERS) if code}

DOUBLE, EN_PASSANT = 1, 2
PLACE = 1 << 24
FIRST = 1 << 25
FIRST_WHITE, FIRST_BLACK = FIRST, FIRST | 1

NOBLES = (QUEEN, ROOK, BISHOP, KNIGHT)
PROMOTIONS = (QUEEN, ROOK, BISHOP, KNIGHT)
# What a pawn move's code gains on the last rank (one move per promotion) and elsewhere.
PROMOTING = tuple(promo << 16 for promo in PROMOTIONS)
NOT_PROMOTING = (0,)


class Geometry:
    """Precomputed move tables of one board size."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.size = size = width * height
        self.names = tuple(f"{FILES[s % width]}{s // width + 1}" for s in range(size))
        self.index = {name: s for s, name in enumerate(self.names)}

        def steps(s: int, deltas: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
            f, r = s % width, s // width
            return tuple(
                (r + dr) * width + f + df
                for df, dr in deltas
                if 0 <= f + df < width and 0 <= r + dr < height
            )

        def ray(s: int, df: int, dr: int) -> tuple[int, ...]:
            out = []
            f, r = s % width + df, s // width + dr
            while 0 <= f < width and 0 <= r < height:
                out.append(r * width + f)
                f, r = f + df, r + dr
            return tuple(out)

        knight = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
        king = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
        # Directions 0-3 are orthogonal (rook lines), 4-7 diagonal (bishop lines).
        dirs = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))
        self.knight = tuple(steps(s, knight) for s in range(size))
        # knight_moves[s]: (square, move) pairs of a knight on s.
        self.knight_moves = tuple(
            tuple((t, s | t << 8) for t in self.knight[s]) for s in range(size)
        )
        self.king = tuple(steps(s, king) for s in range(size))
        self.rays = tuple(tuple(ray(s, df, dr) for df, dr in dirs) for s in range(size))
        self.lengths = tuple([len(r) for r in rays] for rays in self.rays)
        # ray_moves[s][d]: the ray as (square, move) pairs of a slider on s.
        self.ray_moves = tuple(
            tuple(tuple((t, s | t << 8) for t in r) for r in self.rays[s]) for s in range(size)
        )
        # pawn_caps[c][s]: squares a pawn of colour c (0 White, 1 Black) on s attacks;
        # pawn_from[c][s]: squares from which a pawn of colour c attacks s.
        self.pawn_caps = (
            tuple(steps(s, ((-1, 1), (1, 1))) for s in range(size)),
            tuple(steps(s, ((-1, -1), (1, -1))) for s in range(size)),
        )
        self.pawn_from = (self.pawn_caps[1], self.pawn_caps[0])


@cache
def geometry(width: int, height: int) -> Geometry:
    return Geometry(width, height)


OPPOSITE = (1, 0, 3, 2, 7, 6, 5, 4)  # the direction back along each of Geometry's


def _lines(geo: Geometry, s: int, n: list[int]) -> tuple[tuple, ...]:
    """The lines of square ``s`` whose ray d keeps its first ``n[d]`` squares:
    (rook lines, bishop lines, and the same as (square, move) pairs for a rook, a
    bishop and a queen), empty lines left out."""
    rays, moves = geo.rays[s], geo.ray_moves[s]
    orthogonal = tuple(rays[d][: n[d]] for d in range(4) if n[d])
    diagonal = tuple(rays[d][: n[d]] for d in range(4, 8) if n[d])
    rook = tuple(moves[d][: n[d]] for d in range(4) if n[d])
    bishop = tuple(moves[d][: n[d]] for d in range(4, 8) if n[d])
    return orthogonal, diagonal, rook, bishop, rook + bishop


def _cut_lines(geo: Geometry, s: int, n: list[int], open_: tuple[tuple, ...]):
    """``_lines`` of ``s`` from its ``open_`` lines: only the kind a plinth cuts
    (rook or bishop lines) is worked out again."""
    lengths = geo.lengths[s]
    if n[:4] == lengths[:4]:  # a plinth on a diagonal only
        _, diagonal, _, bishop, _ = _lines(geo, s, lengths[:4] + n[4:])
        return open_[0], diagonal, open_[2], bishop, open_[2] + bishop
    if n[4:] == lengths[4:]:
        orthogonal, _, rook, _, _ = _lines(geo, s, n[:4] + lengths[4:])
        return orthogonal, open_[1], rook, open_[3], rook + open_[3]
    return _lines(geo, s, n)


@cache
def _open_lines(geo: Geometry) -> tuple[tuple[tuple, ...], ...]:
    """``_lines`` of every square of a board without plinths."""
    return tuple(_lines(geo, s, geo.lengths[s]) for s in range(geo.size))


class Layout:
    """The fight's move tables of one board and plinth arrangement.

    Plinths never move in the fight, so the rays are cut at them once here, not at
    every step of move generation: a slider stops before a plinth (it can neither
    enter it nor take a knight on it), a King never enters one, a pawn neither
    steps nor takes onto one.  Knights ignore plinths and keep ``Geometry.knight``.
    Only the squares a plinth changes are worked out; the rest are the open board's.
    """

    def __init__(self, geo: Geometry, plinth: tuple[bool, ...]) -> None:
        plinths = [s for s, on in enumerate(plinth) if on]
        # cut[s][d]: how many squares of s's ray d come before a plinth, for the
        # squares that see one: walking back from each plinth finds them.
        cut: dict[int, list[int]] = {}
        for p in plinths:
            for d in range(8):
                for k, s in enumerate(geo.rays[p][OPPOSITE[d]]):
                    n = cut.get(s)
                    if n is None:
                        n = cut[s] = list(geo.lengths[s])
                    if k < n[d]:
                        n[d] = k
        lines = list(_open_lines(geo))
        for s, n in cut.items():
            lines[s] = _cut_lines(geo, s, n, lines[s])
        # orthogonal[s], diagonal[s]: the non-empty rook and bishop lines from s;
        # sliders[type][s]: those of a bishop, rook or queen as (square, move) pairs.
        self.orthogonal, self.diagonal, rook, bishop, queen = (
            tuple(t) for t in zip(*lines, strict=True)
        )
        self.sliders = {BISHOP: bishop, ROOK: rook, QUEEN: queen}
        king, white_caps, black_caps = list(geo.king), *map(list, geo.pawn_caps)
        for p in plinths:
            for table, near in ((king, geo.king[p]), (white_caps, geo.pawn_from[0][p]),
                                (black_caps, geo.pawn_from[1][p])):  # fmt: skip
                for s in near:
                    table[s] = tuple(t for t in table[s] if t != p)
        self.king, self.pawn_caps = tuple(king), (tuple(white_caps), tuple(black_caps))
        self.knight, self.pawn_from = geo.knight, geo.pawn_from  # pawns never on plinths


@lru_cache(maxsize=256)
def layout(geo: Geometry, plinth: tuple[bool, ...]) -> Layout:
    """The Layout of a plinth arrangement: a game keeps its plinths, so one entry
    serves a game's every position (a search's too).  An entry is about 60 KB and
    takes about 1 ms to build on 12x12 when a request finds its game's missing."""
    return Layout(geo, plinth)


def attacks(b: list[int], lay: Layout, sq: int, by: int) -> bool:
    """Whether side ``by`` attacks ``sq`` (a square that is not a plinth) on board ``b``."""
    knight = KNIGHT * by
    for t in lay.knight[sq]:
        if b[t] == knight:
            return True
    for t in lay.pawn_from[0 if by > 0 else 1][sq]:
        if b[t] == by:
            return True
    king = KING * by
    for t in lay.king[sq]:
        if b[t] == king:
            return True
    # The rook lines and the bishop lines in two loops, not one over (lines, piece)
    # pairs: this is the search's innermost test, and the pairs would be built per call.
    queen = QUEEN * by
    rook = ROOK * by
    for ray in lay.orthogonal[sq]:
        for t in ray:
            p = b[t]
            if p:
                if p == rook or p == queen:
                    return True
                break
    bishop = BISHOP * by
    for ray in lay.diagonal[sq]:
        for t in ray:
            p = b[t]
            if p:
                if p == bishop or p == queen:
                    return True
                break
    return False


class Engine:
    """One deployment or fight position, changed in place.

    ``roll`` marks a pending first-player roll: before the first placement it
    decides who deploys first, after the last one who moves first.
    """

    __slots__ = (
        "geo", "lay", "board", "plinth", "hands", "side", "ply", "ep", "kings", "count",
        "roll", "castle", "serious",
    )  # fmt: skip

    def __init__(
        self,
        geo: Geometry,
        board: list[int],
        plinth: tuple[bool, ...],
        hands: list[list[int]],
        side: int,
        ply: int,
        ep: int,
        roll: bool,
        castle: bool,
        serious: bool,
    ) -> None:
        self.geo = geo
        self.lay = layout(geo, plinth)
        self.board = board
        self.plinth = plinth
        self.hands = hands  # hands[0] White, hands[1] Black: counts by type code
        self.side = side
        self.ply = ply
        self.ep = ep
        self.roll = roll
        self.castle = castle
        self.serious = serious
        self.kings = [board.index(KING) if KING in board else -1,
                      board.index(-KING) if -KING in board else -1]  # fmt: skip
        self.count = len(board) - board.count(0)

    # -- state ---------------------------------------------------------------------
    def deploying(self) -> bool:
        return any(self.hands[0]) or any(self.hands[1])

    def attacked(self, sq: int, by: int) -> bool:
        """Whether side ``by`` attacks ``sq`` (a square that is not a plinth)."""
        return attacks(self.board, self.lay, sq, by)

    def in_check(self, side: int) -> bool:
        king = self.kings[0 if side > 0 else 1]
        return king >= 0 and attacks(self.board, self.lay, king, -side)

    def insufficient_material(self) -> bool:
        """K v K or K + one bishop or knight v K."""
        if self.count > 3:
            return False
        others = [abs(p) for p in self.board if p and abs(p) != KING]
        return not others or (len(others) == 1 and others[0] in (KNIGHT, BISHOP))

    def ambush(self) -> bool:
        """The first position of the fight, with the player not to move in check."""
        return self.ply == self.count + 1 and self.in_check(-self.side)

    # -- move generation ---------------------------------------------------------
    def moves(self) -> list[int]:
        """Every legal move (placements, a chance roll or fight moves); [] if over."""
        if self.roll:
            return [FIRST_WHITE, FIRST_BLACK]
        if self.deploying():
            return self.placements()
        if self.count <= 3 and self.insufficient_material():
            return []
        if self.ply == self.count + 1 and self.in_check(-self.side):
            return []
        return self.fight_moves()

    def placement_squares(self, kind: int, side: int) -> list[int]:
        """Where a piece of type ``kind`` may be placed now (deployment rules)."""
        g, b, pl = self.geo, self.board, self.plinth
        width, height = g.width, g.height

        def rank_squares(rel: int, knight: bool) -> list[int]:
            start = (rel if side > 0 else height - 1 - rel) * width
            return [s for s in range(start, start + width) if not b[s] and (knight or not pl[s])]

        if kind == KING:
            start = 0 if side > 0 else (height - 1) * width
            files = range(width) if self.castle or width < 12 else range(3, 9)
            found = [start + f for f in files if not b[start + f] and not pl[start + f]]
            if found:
                return found
            kind = QUEEN  # no central square left: the nobles' filling rule
        knight = kind == KNIGHT
        first = 1 if kind == PAWN else 0
        last = height - 1 if kind == PAWN else height  # a pawn never on the last rank
        for rel in range(first, last):
            found = rank_squares(rel, knight)
            if found:
                return found
        return []

    def placements(self) -> list[int]:
        side = self.side
        hand = self.hands[0 if side > 0 else 1]
        if hand[KING]:
            kinds: tuple[int, ...] = (KING,)
        elif hand[QUEEN] or hand[ROOK] or hand[BISHOP] or hand[KNIGHT]:
            kinds = tuple(k for k in NOBLES if hand[k])
        elif hand[PAWN]:
            kinds = (PAWN,)
        else:
            return []
        out = []
        shared: list[int] | None = None  # Q, R and B share their squares
        for kind in kinds:
            if kind in (QUEEN, ROOK, BISHOP):
                if shared is None:
                    shared = self.placement_squares(kind, side)
                squares = shared
            else:
                squares = self.placement_squares(kind, side)
            tag = PLACE | kind << 8
            out.extend(tag | s for s in squares)
        return out

    def fight_moves(self) -> list[int]:
        side = self.side
        enemy = -side
        b, pl, g, lay = self.board, self.plinth, self.geo, self.lay
        width, size = g.width, g.size
        colour = 0 if side > 0 else 1
        ksq = self.kings[colour]

        # Checkers (as the squares that answer the check) and pinned pieces.
        checks: list[frozenset[int]] = []
        pins: dict[int, frozenset[int]] = {}
        knight_enemy = KNIGHT * enemy
        for t in g.knight[ksq]:
            if b[t] == knight_enemy:
                checks.append(frozenset((t,)))
        for t in g.pawn_from[1 - colour][ksq]:
            if b[t] == enemy:
                checks.append(frozenset((t,)))
        queen_enemy = QUEEN * enemy
        for line, rays in (
            (ROOK * enemy, lay.orthogonal[ksq]),
            (BISHOP * enemy, lay.diagonal[ksq]),
        ):
            for ray in rays:
                own = -1
                for i, t in enumerate(ray):
                    p = b[t]
                    if not p:
                        continue
                    if p * side > 0:
                        if own >= 0:
                            break
                        own = t
                        continue
                    if p == line or p == queen_enemy:
                        if own < 0:
                            checks.append(frozenset(ray[: i + 1]))
                        else:
                            pins[own] = frozenset(ray[: i + 1])
                    break

        out: list[int] = []
        append = out.append
        b[ksq] = 0  # the King must not hide behind itself from a slider
        for t in lay.king[ksq]:
            if b[t] * side > 0:
                continue
            if not attacks(b, lay, t, enemy):
                append(ksq | t << 8)
        b[ksq] = KING * side
        if len(checks) > 1:
            return out
        mask = checks[0] if checks else None

        last_lo, last_hi = (size - width, size) if side > 0 else (0, width)
        if side > 0:
            start_lo, start_hi = width, 2 * width
        else:
            start_lo, start_hi = size - 2 * width, size - width
        forward = width * side
        caps = lay.pawn_caps[colour]
        knights = g.knight_moves
        sliders = lay.sliders

        for sq, p in enumerate(b):
            if not p:
                continue
            p *= side
            if p <= 0 or p == KING:
                continue
            allowed = pins.get(sq) if pins else None
            if mask is not None:
                allowed = mask if allowed is None else allowed & mask
            if p == KNIGHT:
                if pins and sq in pins:
                    continue
                for t, move in knights[sq]:
                    if b[t] * side <= 0 and (allowed is None or t in allowed):
                        append(move)
            elif p == PAWN:
                # The step and the captures all reach the next rank: all promote or none.
                one = sq + forward
                promos = PROMOTING if last_lo <= one < last_hi else NOT_PROMOTING
                if not b[one] and not pl[one]:
                    if start_lo <= sq < start_hi:
                        two = one + forward
                        if not b[two] and not pl[two] and (allowed is None or two in allowed):
                            append(sq | two << 8 | DOUBLE << 20)
                    if allowed is None or one in allowed:
                        for promo in promos:
                            append(sq | one << 8 | promo)
                for t in caps[sq]:
                    if b[t] * side < 0 and (allowed is None or t in allowed):
                        for promo in promos:
                            append(sq | t << 8 | promo)
            elif allowed is None:
                for ray in sliders[p][sq]:
                    for t, move in ray:
                        q = b[t]
                        if q:
                            if q * side < 0:
                                append(move)
                            break
                        append(move)
            else:
                for ray in sliders[p][sq]:
                    for t, move in ray:
                        q = b[t]
                        if q * side > 0:
                            break
                        if t in allowed:
                            append(move)
                        if q:
                            break

        ep = self.ep
        if ep >= 0:
            for sq in g.pawn_from[colour][ep]:
                if b[sq] == side:
                    move = sq | ep << 8 | EN_PASSANT << 20
                    undo = self.make(move)
                    if not self.in_check(side):
                        append(move)
                    self.unmake(undo)
        return out

    # -- making moves ----------------------------------------------------------------
    def make(self, move: int) -> tuple:
        """Play ``move`` in place; returns what ``unmake`` needs."""
        if move & PLACE:
            return self._place(move)
        if move & FIRST:
            undo = (FIRST, self.side)
            self.side = -1 if move & 1 else 1
            self.roll = False
            return undo
        b = self.board
        side = self.side
        frm, to = move & 255, (move >> 8) & 255
        promo, flag = (move >> 16) & 7, move >> 20
        piece = b[frm]
        undo = (move, b[to], self.ep)
        if flag == EN_PASSANT:
            b[to - self.geo.width * side] = 0
            self.count -= 1
        elif b[to]:
            self.count -= 1
        b[frm] = 0
        b[to] = promo * side if promo else piece
        if piece == KING * side:
            self.kings[0 if side > 0 else 1] = to
        self.ep = (frm + to) >> 1 if flag == DOUBLE else -1
        self.side = -side
        self.ply += 1
        return undo

    def _place(self, move: int) -> tuple:
        side = self.side
        colour = 0 if side > 0 else 1
        kind, to = (move >> 8) & 7, move & 255
        undo = (PLACE, move, side)
        self.board[to] = kind * side
        self.hands[colour][kind] -= 1
        if kind == KING:
            self.kings[colour] = to
        self.count += 1
        self.ply += 1
        if any(self.hands[1 - colour]):
            self.side = -side
        elif not any(self.hands[colour]):
            # Deployment is over: the player who finished first moves first when
            # serious, otherwise a roll decides.
            if self.serious:
                self.side = -side
            else:
                self.roll = True
        return undo

    def unmake(self, undo: tuple) -> None:
        head = undo[0]
        if head == FIRST:
            self.side = undo[1]
            self.roll = True
            return
        if head == PLACE:
            _, move, side = undo
            colour = 0 if side > 0 else 1
            kind, to = (move >> 8) & 7, move & 255
            self.board[to] = 0
            self.hands[colour][kind] += 1
            if kind == KING:
                self.kings[colour] = -1
            self.count -= 1
            self.ply -= 1
            self.side = side
            self.roll = False
            return
        move, captured, ep = undo
        b = self.board
        side = -self.side  # the side that moved
        frm, to = move & 255, (move >> 8) & 255
        promo, flag = (move >> 16) & 7, move >> 20
        piece = PAWN * side if promo else b[to]
        b[frm] = piece
        b[to] = captured
        if flag == EN_PASSANT:
            b[to - self.geo.width * side] = -side
            self.count += 1
        elif captured:
            self.count += 1
        if piece == KING * side:
            self.kings[0 if side > 0 else 1] = frm
        self.ep = ep
        self.side = side
        self.ply -= 1

    # -- counting --------------------------------------------------------------------
    def perft(self, depth: int) -> int:
        moves = self.moves()
        if depth <= 1:
            return len(moves) if depth == 1 else 1
        total = 0
        make, unmake, perft = self.make, self.unmake, self.perft
        for move in moves:
            undo = make(move)
            total += perft(depth - 1)
            unmake(undo)
        return total


def move_text(geo: Geometry, side: int, move: int) -> str:
    """A placement, first-player roll or fight move as text (``side`` places)."""
    names = geo.names
    if move & PLACE:
        letter = LETTERS[(move >> 8) & 7]
        return f"{letter if side > 0 else letter.lower()}@{names[move & 255]}"
    if move & FIRST:
        return "first b" if move & 1 else "first w"
    text = f"{names[move & 255]}_{names[(move >> 8) & 255]}"
    promo = (move >> 16) & 7
    return f"{text}={LETTERS[promo]}" if promo else text
