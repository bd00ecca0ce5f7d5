"""Barrier layouts of Le Carge: the 40 inner edges, validation, presets, random draws.

Squares are ints ``rank * 5 + file`` (a1 = 0, e5 = 24).  A barrier lies on one of
the 40 inner edges and is named after the square south or west of it: ``b2n``
lies between b2 and b3, ``c3e`` between c3 and d3.  Edge ``i`` is bit ``1 << i``
of a barrier mask; edges 0-19 are the ``n`` edges (``rank * 5 + file``), edges
20-39 the ``e`` edges (``20 + rank * 4 + file``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from .base import FILES, Message, RulesError, _, square_name

SIZE = 5
SQUARES = SIZE * SIZE
EDGE_COUNT = 40
# A layout stays connected only while the open edges still hold a spanning tree
# of the 25 squares (24 edges), so at most 40 - 24 barriers fit.
MAX_BARRIERS = EDGE_COUNT - (SQUARES - 1)


def _edge_table() -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
    names, ends = [], []
    for rank in range(SIZE - 1):
        for file in range(SIZE):
            names.append(square_name(file, rank) + "n")
            ends.append((rank * SIZE + file, (rank + 1) * SIZE + file))
    for rank in range(SIZE):
        for file in range(SIZE - 1):
            names.append(square_name(file, rank) + "e")
            ends.append((rank * SIZE + file, rank * SIZE + file + 1))
    return tuple(names), tuple(ends)


EDGE_NAMES, EDGE_ENDS = _edge_table()
EDGE_INDEX = {name: i for i, name in enumerate(EDGE_NAMES)}
# square -> the inner edges on its sides
SQUARE_EDGES: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, ends in enumerate(EDGE_ENDS) if sq in ends) for sq in range(SQUARES)
)


def barrier_index(name: str, error: type[RulesError] = RulesError) -> int:
    """The edge index of a barrier name such as ``b2n``; ``error`` if it is not one."""
    index = EDGE_INDEX.get(name)
    if index is not None:
        return index
    if len(name) == 3 and name[0] in FILES[:SIZE] and name[1] in "12345" and name[2] in "ne":
        if name[2] == "n":
            raise error(
                _("barrier {name} lies on the edge of the board (there is no rank 6)", name=name)
            )
        raise error(
            _("barrier {name} lies on the edge of the board (there is no file f)", name=name)
        )
    raise error(
        _("not a barrier: {name!r} (write a square and n or e, such as b2n or c3e)", name=name)
    )


def barrier_names(mask: int) -> list[str]:
    """The barriers of a mask, sorted as the FEN writes them (plain string order)."""
    return sorted(EDGE_NAMES[i] for i in range(EDGE_COUNT) if mask >> i & 1)


def parse_barriers(names: Iterable[str], error: type[RulesError] = RulesError) -> int:
    """A barrier mask from names; ``error`` on a bad or repeated name."""
    mask = 0
    for name in names:
        bit = 1 << barrier_index(name, error)
        if mask & bit:
            raise error(_("barrier {name} is given twice", name=name))
        mask |= bit
    return mask


def listed_barriers(value: str) -> tuple[str, ...]:
    """The barrier names of a layout written as a list: comma-separated, or ``-`` (as
    in the FEN) or nothing for a layout without barriers."""
    value = value.strip()
    if value in ("", "-"):
        return ()
    return tuple(name.strip() for name in value.split(","))


def regions(mask: int) -> list[list[int]]:
    """The parts of the board that barriers keep apart, largest first."""
    neighbours: list[list[int]] = [[] for _sq in range(SQUARES)]
    for i, (a, b) in enumerate(EDGE_ENDS):
        if not mask >> i & 1:
            neighbours[a].append(b)
            neighbours[b].append(a)
    seen = [False] * SQUARES
    parts = []
    for start in range(SQUARES):
        if seen[start]:
            continue
        seen[start] = True
        part, todo = [], [start]
        while todo:
            sq = todo.pop()
            part.append(sq)
            for nb in neighbours[sq]:
                if not seen[nb]:
                    seen[nb] = True
                    todo.append(nb)
        parts.append(sorted(part))
    return sorted(parts, key=len, reverse=True)


def enclosure_problem(mask: int) -> Message | None:
    """Why a starting layout encloses part of the board, or None if it does not."""
    parts = regions(mask)
    if len(parts) == 1:
        return None
    cut = "; ".join(
        ", ".join(sorted(square_name(sq % SIZE, sq // SIZE) for sq in part)) for part in parts[1:]
    )
    return _(
        "the barriers enclose {cut}"
        " (every square must reach every other without crossing a barrier)",
        cut=cut,
    )


def validate_layout(names: Iterable[str], error: type[RulesError] = RulesError) -> int:
    """The mask of a starting layout; ``error`` if malformed or enclosing."""
    mask = parse_barriers(names, error)
    problem = enclosure_problem(mask)
    if problem is not None:
        raise error(problem)
    return mask


def random_layout(count: int, rng: random.Random) -> tuple[str, ...]:
    """A valid layout of exactly ``count`` barriers, uniform over all such layouts.

    Draws ``count`` edges from ``rng`` until they enclose nothing (rejection keeps
    the draw uniform; even at 16 barriers about one draw in 113 is kept).
    """
    if not 0 <= count <= MAX_BARRIERS:
        raise RulesError(
            _(
                "a random layout has 0 to {most} barriers (more would enclose a square),"
                " not {count}",
                most=MAX_BARRIERS,
                count=count,
            )
        )
    while True:
        edges = rng.sample(range(EDGE_COUNT), count)
        mask = sum(1 << i for i in edges)
        if len(regions(mask)) == 1:
            return tuple(barrier_names(mask))


# key -> (English label, barriers); keys are stored in games, never change them.
PRESETS: dict[str, tuple[str, tuple[str, ...]]] = {
    "open": ("Open field", ()),
    "corners": ("Corner posts", ("a1e", "a4n", "d5e", "e1n")),
    "crossroads": (
        "Crossroads",
        ("b2e", "b2n", "b3n", "b4e", "c2e", "c4e", "d2n", "d3n"),
    ),
    "windmill": (
        "Windmill",
        ("a3n", "b1e", "b2e", "b3n", "c4e", "c5e", "d2n", "e2n"),
    ),
    "pinwheel": (
        "Pinwheel",
        ("a4e", "b1n", "b2e", "b3n", "c4e", "d2e", "d2n", "d4n"),
    ),
    "switchback": (
        "Switchback",
        ("a3n", "b2n", "b3n", "c2n", "c3n", "d2n", "d3n", "e2n"),
    ),
    "rooms": (
        "Four rooms",
        ("a2n", "a3n", "b1e", "b2n", "b4e", "b5e", "c1e", "c2e", "c5e", "d3n", "e2n", "e3n"),
    ),
    "serpent": (
        "Serpent",
        (
            "a1n", "a3n", "b1n", "b2n", "b3n", "b4n", "c1n", "c2n",
            "c3n", "c4n", "d1n", "d2n", "d3n", "d4n", "e2n", "e4n",
        ),
    ),
    "maze": (
        "Maze",
        (
            "a1n", "a2n", "a4e", "b1n", "b2e", "b3e", "b4e", "b4n",
            "c1e", "c2n", "c4e", "d1n", "d2e", "d3e", "d3n", "d5e",
        ),
    ),
}  # fmt: skip


def presets() -> list[tuple[str, str, tuple[str, ...]]]:
    """The named layouts as (key, English label, barriers), for the challenge form."""
    return [(key, label, barriers) for key, (label, barriers) in PRESETS.items()]
