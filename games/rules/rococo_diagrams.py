"""The diagrams of the Rococo rule text (seed 002), for the site's rules page.

Each ``fen:`` line of the seed becomes one ``Diagram``: the board part of a FEN
(rank 10 first), the squares the text marks, and its caption in English.  The two
diagrams of the swapper-king figure share one caption and one ``figure`` number.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Diagram:
    position: str  # board part of a FEN, no kings needed
    marked: tuple[str, ...]
    caption: str
    figure: int  # diagrams with the same number are shown side by side


_DIAGRAMS = (
    Diagram(
        "91/91/91/5m4/91/91/91/4M5/91/91",
        (),
        "Immobilizers on e3 and f7.",
        1,
    ),
    Diagram(
        "91/91/91/91/4b5/4P5/5Q4/91/91/91",
        ("e4", "d4", "d5", "d6", "f6", "f5", "e7", "g3"),
        "Squares the pawn can move to (without capturing).",
        2,
    ),
    Diagram(
        "91/91/91/4p5/4b5/1rB1P5/5Q4/2p3q3/91/91",
        ("e7", "g3"),
        "The pawn's possible captures.",
        3,
    ),
    Diagram(
        "91/91/91/91/2bQ4r1/91/91/91/91/91",
        ("h6",),
        "Every move to the right captures the bishop (chameleon); only the move to "
        "the marked square also captures the rook (swapper).",
        4,
    ),
    Diagram(
        "91/91/7k2/91/91/91/2n7/2R7/91/91",
        (),
        "Before and after the swap of the rook (swapper) with the king.",
        5,
    ),
    Diagram(
        "91/91/7R2/91/91/91/2n7/2k7/91/91",
        (),
        "Before and after the swap of the rook (swapper) with the king.",
        5,
    ),
)


def seed_diagrams() -> list[Diagram]:
    """The rule text's diagrams, in the order the text shows them."""
    return list(_DIAGRAMS)
