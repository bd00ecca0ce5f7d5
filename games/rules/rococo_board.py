"""Rococo move generation on a mutable board of ints (the engine's hot path).

The board is a list of 144 ints: the 10x10 board inside a one-square ring of
``OFF`` sentinels, square ``(file, rank)`` at index ``(rank + 1) * 12 + file + 1``.
A piece is its type (1-7), plus 8 for Black.  The edge ring of the game (files a
and j, ranks 1 and 10) is on the board; only ``EDGE`` marks it.

A move is a plain tuple ``(from, to, captured, kind)``: ``captured`` holds the
squares of the pieces taken, sorted by file then rank; ``kind`` is NORMAL, SWAP,
KAMIKAZE or SUICIDE.  Who may capture what, and the edge rule, follow
``rulings.md`` (vchess's Rococo where the ruling is silent).
"""

from __future__ import annotations

from collections.abc import Set

EMPTY = 0
PAWN, SWAPPER, LEAPER, CHAMELEON, PUSHME, IMMOBILIZER, KING = range(1, 8)
BLACK_BIT = 8
OFF = 16

NORMAL, SWAP, KAMIKAZE, SUICIDE = range(4)

# vchess's order of the eight directions (north, south, west, east, then the
# diagonals north-west, north-east, south-west, south-east): a frozen piece's
# suicide goes onto the first freezing piece found in this order.
DIRS = (12, -12, -1, 1, 11, 13, -13, -11)

SQUARES = tuple((r + 1) * 12 + f + 1 for r in range(10) for f in range(10))
EDGE = bytearray(144)
for _sq in SQUARES:
    _f, _r = _sq % 12 - 1, _sq // 12 - 1
    if _f in (0, 9) or _r in (0, 9):
        EDGE[_sq] = 1
ALL_RAYS = frozenset(DIRS)
NEIGHBOURS = [tuple(sq + d for d in DIRS) for sq in range(144)]
NEAR = [frozenset(n) for n in NEIGHBOURS]
# AXIS[k][sq]: the line through k that sq lies on (|d| of its direction), 0 if
# none.  The attacks along d read only squares of d's line (and the freezers of
# the attackers found).
AXIS = [bytearray(144) for _ in range(144)]
_ON_BOARD = frozenset(SQUARES)
for _k in SQUARES:
    for _d in DIRS:
        _t = _k + _d
        while _t in _ON_BOARD:
            AXIS[_k][_t] = abs(_d)
            _t += _d

# OWN[side][v] / ENEMY[side][v]: does the value v hold a piece of / against side (0 White)?
OWN = (
    tuple(1 <= v <= 7 for v in range(17)),
    tuple(9 <= v <= 15 for v in range(17)),
)
ENEMY = (OWN[1], OWN[0])


def file_of(sq: int) -> int:
    return sq % 12 - 1


def rank_of(sq: int) -> int:
    return sq // 12 - 1


def index(file: int, rank: int) -> int:
    return (rank + 1) * 12 + file + 1


def move_length(frm: int, to: int) -> int:
    """The ruling's length of a move: |delta file| + |delta rank|."""
    return abs(frm % 12 - to % 12) + abs(frm // 12 - to // 12)


def _sorted(caps: list[int]) -> tuple[int, ...]:
    if len(caps) < 2:
        return tuple(caps)
    return tuple(sorted(caps, key=lambda sq: (sq % 12, sq // 12)))


def _edge_filter(moves: list[tuple], start: int) -> None:
    """Drop, from ``moves[start:]`` (one piece's moves), the captures ending on the
    edge for which another move of the piece takes the same pieces in fewer steps."""
    best: dict[frozenset, int] = {}
    for frm, to, caps, kind in moves[start:]:
        if caps and kind != SWAP:
            key = frozenset(caps)
            length = move_length(frm, to)
            if best.get(key, 99) > length:
                best[key] = length
    moves[start:] = [
        m
        for m in moves[start:]
        if not (EDGE[m[1]] and m[2] and m[3] != SWAP)
        or best[frozenset(m[2])] == move_length(m[0], m[1])
    ]


def _squares(packed: bytes, piece: int) -> list[int]:
    """The squares of every ``piece`` on the board ``packed``: the board as bytes,
    searched at C speed (``list.index`` compares item by item, far slower)."""
    found = []
    at = packed.find(piece)
    while at >= 0:
        found.append(at)
        at = packed.find(piece, at + 1)
    return found


def _neighbourhood(packed: bytes, piece: int) -> frozenset[int]:
    """The squares next to any ``piece`` on the board ``packed`` (as bytes)."""
    squares = _squares(packed, piece)
    if len(squares) == 1:  # the usual case, without building a set
        return NEAR[squares[0]]
    return frozenset().union(*(NEIGHBOURS[sq] for sq in squares))


def pseudo_moves(
    b: list[int], packed: bytes, side: int, last_swap: tuple[int, int] | None
) -> list[tuple]:
    """Every move of ``side`` ignoring its own king's safety (``packed``: ``b`` as bytes)."""
    own = OWN[side]
    enemy = ENEMY[side]
    ebit = BLACK_BIT if side == 0 else 0
    e_pawn, e_swapper, e_leaper = PAWN | ebit, SWAPPER | ebit, LEAPER | ebit
    e_chameleon, e_pushme, e_immobilizer = CHAMELEON | ebit, PUSHME | ebit, IMMOBILIZER | ebit
    edge = EDGE
    moves: list[tuple] = []
    add = moves.append
    # Squares next to an enemy immobilizer (any piece there is frozen), and next to
    # an enemy chameleon (an immobilizer there is frozen).
    near_immobilizer = _neighbourhood(packed, e_immobilizer)
    own_immobilizer = IMMOBILIZER | (BLACK_BIT - ebit)
    near_chameleon = _neighbourhood(packed, e_chameleon) if own_immobilizer in packed else ()
    for s in SQUARES:
        v = b[s]
        if not own[v]:
            continue
        kind = v & 7
        if s in near_immobilizer or (kind == IMMOBILIZER and s in near_chameleon):
            if kind != KING:
                # The suicide goes onto the first freezing piece in DIRS order.
                for n in NEIGHBOURS[s]:
                    w = b[n]
                    if w == e_immobilizer or (w == e_chameleon and kind == IMMOBILIZER):
                        add((s, n, (), SUICIDE))
                        break
            continue
        first = len(moves)
        edge_caps = False
        if kind == PAWN:
            for d in DIRS:
                t = s + d
                w = b[t]
                if w == EMPTY:
                    if not edge[t]:
                        add((s, t, (), NORMAL))
                elif w != OFF:
                    t += d
                    w = b[t]
                    if w == EMPTY:
                        if not edge[t]:
                            add((s, t, (), NORMAL))
                    elif enemy[w]:
                        add((s, t, (t,), NORMAL))
            continue
        if kind == KING:
            for d in DIRS:
                t = s + d
                w = b[t]
                if w == EMPTY:
                    if not edge[t]:
                        add((s, t, (), NORMAL))
                elif enemy[w]:
                    add((s, t, (t,), NORMAL))
            continue
        if kind == IMMOBILIZER:
            for d in DIRS:
                t = s + d
                while b[t] == EMPTY:
                    if not edge[t]:
                        add((s, t, (), NORMAL))
                    t += d
            continue
        if kind == SWAPPER:
            for d in DIRS:
                t = s + d
                while b[t] == EMPTY:
                    if not edge[t]:
                        add((s, t, (), NORMAL))
                    t += d
                if enemy[b[t]]:
                    if last_swap != (s, t):
                        add((s, t, (), SWAP))
                    if t == s + d:
                        add((s, t, (t,), KAMIKAZE))
            continue
        if kind == LEAPER:
            for d in DIRS:
                t = s + d
                while b[t] == EMPTY:
                    if not edge[t]:
                        add((s, t, (), NORMAL))
                    t += d
                if not enemy[b[t]]:
                    continue
                caps: list[int] = []
                while True:
                    caps.append(t)
                    t += d
                    if b[t] != EMPTY:
                        break  # two pieces in a row, or the board's end
                    # The first landing square after the last piece jumped is the
                    # shortest move taking exactly these pieces: it may be on the edge.
                    taken = _sorted(caps)
                    add((s, t, taken, NORMAL))
                    t += d
                    while b[t] == EMPTY:
                        if not edge[t]:
                            add((s, t, taken, NORMAL))
                        t += d
                    if not enemy[b[t]]:
                        break
            continue
        if kind == PUSHME:
            for d in DIRS:
                back = s - d
                withdrawn = back if enemy[b[back]] else 0
                t = s + d
                if b[t] != EMPTY:
                    continue
                while True:
                    nxt = t + d
                    if b[nxt] == EMPTY:
                        if withdrawn:
                            add((s, t, (withdrawn,), NORMAL))
                            if edge[t]:
                                edge_caps = True
                        elif not edge[t]:
                            add((s, t, (), NORMAL))
                        t = nxt
                        continue
                    # t is the last empty square: approach too.
                    caps = [withdrawn] if withdrawn else []
                    if enemy[b[nxt]]:
                        caps.append(nxt)
                    if caps:
                        add((s, t, _sorted(caps), NORMAL))
                        if edge[t]:
                            edge_caps = True
                    elif not edge[t]:
                        add((s, t, (), NORMAL))
                    break
            if edge_caps:
                _edge_filter(moves, first)
            continue
        # Chameleon: captures each piece as that piece captures; every one of
        # its moves also takes pushme-pullyus by withdrawal and approach.
        for d in DIRS:
            back = s - d
            withdrawn = back if b[back] == e_pushme else 0
            t = s + d
            while b[t] == EMPTY:
                caps = [withdrawn] if withdrawn else []
                if b[t + d] == e_pushme:
                    caps.append(t + d)
                if caps:
                    add((s, t, _sorted(caps), NORMAL))
                    if edge[t]:
                        edge_caps = True
                elif not edge[t]:
                    add((s, t, (), NORMAL))
                t += d
            w = b[t]
            if w == e_swapper:
                # The swap and the kamikaze end on the same square: merged, a swap.
                if last_swap != (s, t):
                    caps = [withdrawn] if withdrawn else []
                    if b[t + d] == e_pushme:
                        caps.append(t + d)
                    add((s, t, _sorted(caps), SWAP))
            elif w == e_leaper:
                jumped: list[int] = [withdrawn] if withdrawn else []
                while True:
                    jumped.append(t)
                    t += d
                    if b[t] != EMPTY:
                        break
                    while b[t] == EMPTY:
                        caps = jumped + [t + d] if b[t + d] == e_pushme else jumped
                        if edge[t]:
                            edge_caps = True
                        add((s, t, _sorted(caps), NORMAL))
                        t += d
                    if b[t] != e_leaper:
                        break
            # The cannon jump over the adjacent piece, onto an enemy pawn.
            a = s + d
            if b[a] != EMPTY and b[a] != OFF and b[a + d] == e_pawn:
                t = a + d
                caps = [t, withdrawn] if withdrawn else [t]
                if b[t + d] == e_pushme:
                    caps.append(t + d)
                add((s, t, _sorted(caps), NORMAL))
        if edge_caps:
            _edge_filter(moves, first)
    return moves


def attacked(
    b: list[int], k: int, by: int, dirs: tuple[int, ...] = DIRS, rays: Set[int] = ALL_RAYS
) -> bool:
    """Is the king on ``k`` attacked, along ``dirs``, by a piece of side ``by`` that
    is not frozen?

    As vchess: a pawn behind an adjacent piece, an adjacent swapper (kamikaze),
    chameleon or king, a pushme-pullyu in view (adjacent: with room to withdraw),
    a long leaper that can jump the king (and any pieces between) and land.
    Only the directions in ``rays`` (see ``rays_to``) are followed past an empty
    neighbour.
    """
    abit = BLACK_BIT if by == 1 else 0
    a_pawn, a_leaper, a_pushme = PAWN | abit, LEAPER | abit, PUSHME | abit
    adjacent_takers = (SWAPPER | abit, CHAMELEON | abit, KING | abit)
    frozen_by = IMMOBILIZER | (BLACK_BIT - abit)
    attacker = OWN[by]
    for d in dirs:
        a = k + d
        v = b[a]
        if v == OFF:
            continue
        if v != EMPTY:
            beyond = b[a + d]
            if v in adjacent_takers or (
                (v == a_pushme and beyond == EMPTY) or (v == a_leaper and b[k - d] == EMPTY)
            ):
                if frozen_by not in [b[n] for n in NEIGHBOURS[a]]:
                    return True
            if beyond == a_pawn and frozen_by not in [b[n] for n in NEIGHBOURS[a + d]]:
                return True
            continue
        # Empty neighbour: a pushme-pullyu approaching, or a long leaper's line.
        if d not in rays:
            continue
        land = b[k - d] == EMPTY
        jumped = False
        t = a
        while True:
            while b[t] == EMPTY:
                t += d
            v = b[t]
            if v == OFF:
                break
            if attacker[v]:
                if (v == a_leaper and land) or (v == a_pushme and not jumped):
                    if frozen_by not in [b[n] for n in NEIGHBOURS[t]]:
                        return True
                break
            # A piece of the king's side: the leaper may jump it if the square
            # after it, on the leaper's way to the king, is empty.
            if not land or b[t - d] != EMPTY:
                break
            jumped = True
            t += d
    return False


def long_pieces(packed: bytes, by: int) -> list[int]:
    """The squares of side ``by``'s long leapers and pushme-pullyus, the only pieces
    that attack from further than two squares (``packed``: the board as bytes)."""
    bbit = BLACK_BIT if by == 1 else 0
    return _squares(packed, LEAPER | bbit) + _squares(packed, PUSHME | bbit)


def rays_to(k: int, squares: list[int]) -> set[int]:
    """The directions from ``k`` whose ray (to the board's end) holds one of ``squares``."""
    axis = AXIS[k]
    return {axis[sq] if sq > k else -axis[sq] for sq in squares if axis[sq]}


def king_zone(b: list[int], k: int, by: int, rays: Set[int]) -> list[tuple[int, ...]]:
    """The squares whose contents decide whether the king on ``k`` is attacked by
    side ``by`` (besides the freezing of attackers, which only immobilizers change),
    each with the directions from the king whose attacks it can change: a list by
    square, ``()`` for the squares outside the zone.

    A direction reads its own ray and, for the long leaper's landing, the square
    next to the king on the other side.  Only the long leaper and the pushme-pullyu
    attack from beyond the king's neighbours, so a ray that holds neither (not in
    ``rays``, see ``rays_to``) adds just its square next to the king, if empty: a
    piece put there may open a cannon pawn's shot.  This holds for the moves of the
    king's side that bring no enemy piece onto a line (swaps do) and while the king
    is not attacked; when it is, pass ``rays=ALL_RAYS`` (a move outside the zone then
    leaves it attacked).
    """
    attacker = OWN[by]
    zone: list[tuple[int, ...]] = [()] * 144
    for d in DIRS:
        t = k + d
        if b[t] == OFF:
            continue
        live = d in rays
        if b[t] != EMPTY:
            # Emptied, it lets an attack along d through, or a leaper from -d land.
            back = -d in rays
            zone[t] = ((d, -d) if back else (d,)) if live else ((-d,) if back else ())
            if live:
                zone[t + d] = (d,)
            continue
        zone[t] = mine = (d,)  # filled: a cannon pawn's shot; a leaper from -d blocked
        if not live:
            continue
        while True:
            while b[t] == EMPTY:
                if not zone[t]:
                    zone[t] = mine
                t += d
            v = b[t]
            if v == OFF:
                break
            zone[t] = mine
            if attacker[v] or b[t + d] != EMPTY:
                zone[t + d] = mine
                break
            t += d
    return zone


def make(b: list[int], move: tuple) -> list:
    """Play ``move`` on ``b``; return what ``unmake`` needs."""
    frm, to, caps, kind = move
    saved = [(sq, b[sq]) for sq in caps]
    saved.append((frm, b[frm]))
    saved.append((to, b[to]))
    piece = b[frm]
    for sq in caps:
        b[sq] = EMPTY
    if kind == NORMAL:
        b[frm] = EMPTY
        b[to] = piece
    elif kind == SWAP:
        b[frm] = saved[-1][1]
        b[to] = piece
    else:  # kamikaze or suicide: the mover vanishes (and a kamikaze's victim)
        b[frm] = EMPTY
    return saved


def unmake(b: list[int], saved: list) -> None:
    for sq, v in reversed(saved):
        b[sq] = v


def kings_after(kings: tuple[int, int], b_before: list[int], move: tuple) -> tuple[int, int]:
    """King squares after ``move`` (called before it is played on ``b_before``)."""
    frm, to, caps, kind = move
    wk, bk = kings
    if kind == NORMAL and b_before[frm] & 7 == KING:  # it may take the other king
        if b_before[frm] == KING:
            return to, 0 if bk == to else bk
        return 0 if wk == to else wk, to
    if kind == SWAP and b_before[to] & 7 == KING:
        return (frm, bk) if b_before[to] == KING else (wk, frm)
    if caps:
        if wk in caps:
            wk = 0
        if bk in caps:
            bk = 0
    return wk, bk


def _safe_after(
    b: list[int], move: tuple, king: int, by: int, dirs=DIRS, rays: Set[int] = ALL_RAYS
) -> bool:
    """Is the king on ``king`` safe from ``by`` along ``dirs`` once ``move`` is played?"""
    saved = make(b, move)
    safe = not attacked(b, king, by, dirs, rays)
    unmake(b, saved)
    return safe


def legal_moves(
    b: list[int], side: int, kings: tuple[int, int], last_swap: tuple[int, int] | None
) -> list[tuple]:
    """The moves of ``side`` that do not leave its king attacked (``b`` is restored)."""
    packed = bytes(b)
    moves = pseudo_moves(b, packed, side, last_swap)
    king = kings[side]
    if not king:
        return moves
    other = 1 - side
    # Only swaps bring an enemy piece onto a line: for the other moves, the rays
    # followed past the king's neighbours are those of the enemy's long-range pieces.
    longs = long_pieces(packed, other)
    rays = rays_to(king, longs)
    in_check = attacked(b, king, other, DIRS, rays)
    zone = king_zone(b, king, other, ALL_RAYS if in_check else rays)
    axis = AXIS[king]
    enemy = ENEMY[side]
    own_bit = BLACK_BIT if side else 0
    own_king = KING | own_bit
    own_immobilizer = IMMOBILIZER | own_bit
    plain = PAWN | own_bit  # any own piece but the immobilizer: attacks see them alike
    # A quiet move changes two squares; when they are not on one line through the
    # king, each line's attacks depend on one of them alone, so "is the king attacked
    # with frm emptied" and "... with a piece on to" are asked once per square.
    emptied: dict[int, bool] = {}
    filled: dict[int, bool] = {}
    freeing: dict[int, bool] = {}  # own immobilizer square -> has an enemy neighbour
    legal = []
    for m in moves:
        frm, to, caps, kind = m
        mover = b[frm]
        if mover == own_king:
            # A plain step, maybe onto an enemy piece, tried in place: through
            # _safe_after's make/unmake, middle-game perft is 5% slower.
            taken = b[to]
            b[frm] = EMPTY
            b[to] = mover
            if not attacked(b, to, other, DIRS, rays_to(to, longs)):
                legal.append(m)
            b[frm] = mover
            b[to] = taken
            continue
        if kind == SWAP:  # an enemy piece enters frm: maybe a ray the zone left out
            dirs = DIRS
        else:
            dirs = zone[frm] + zone[to]
            for c in caps:
                dirs += zone[c]
        if mover == own_immobilizer:
            # Moving away, it may unfreeze an attacker anywhere on the board; if no
            # enemy piece is next to it, it only freezes more: a plain piece's verdict
            # below holds when it says safe.
            if frm not in freeing:
                freeing[frm] = any(enemy[b[n]] for n in NEIGHBOURS[frm])
            if in_check or freeing[frm]:
                if _safe_after(b, m, king, other, DIRS, rays):
                    legal.append(m)
                continue
        if not dirs:
            if not in_check:  # nothing the attacks depend on has changed
                legal.append(m)
            continue
        if in_check:
            safe = _safe_after(b, m, king, other, DIRS, ALL_RAYS if kind == SWAP else rays)
        elif not caps and kind == NORMAL and (not axis[frm] or axis[frm] != axis[to]):
            hit = emptied.get(frm)
            if hit is None and zone[frm]:
                b[frm] = EMPTY
                hit = emptied[frm] = attacked(b, king, other, zone[frm])
                b[frm] = mover
            if not hit:
                hit = filled.get(to)
                if hit is None and zone[to]:
                    b[to] = plain
                    hit = filled[to] = attacked(b, king, other, zone[to])
                    b[to] = EMPTY
            # On ``to`` an immobilizer may freeze the attacker a plain piece would not.
            safe = not hit or (
                mover == own_immobilizer and _safe_after(b, m, king, other, DIRS, rays)
            )
        elif mover == own_immobilizer:
            safe = _safe_after(b, m, king, other, DIRS, rays)
        elif not caps and kind == NORMAL:
            b[to] = mover
            b[frm] = EMPTY
            safe = not attacked(b, king, other, dirs)
            b[frm] = mover
            b[to] = EMPTY
        else:
            safe = _safe_after(b, m, king, other, dirs)
        if safe:
            legal.append(m)
    return legal


def perft(
    b: list[int], side: int, kings: tuple[int, int], last_swap: tuple[int, int] | None, depth: int
) -> int:
    """Leaf count of the legal-move tree; the last ply is counted, not played."""
    moves = legal_moves(b, side, kings, last_swap)
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    total = 0
    for m in moves:
        new_kings = kings_after(kings, b, m)
        saved = make(b, m)
        total += perft(b, 1 - side, new_kings, (m[0], m[1]) if m[3] == SWAP else None, depth - 1)
        unmake(b, saved)
    return total
