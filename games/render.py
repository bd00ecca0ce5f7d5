"""Board and move list data for templates: squares in display order, with names,
pieces and marks; the move list's lines.

``board_context`` turns a rules ``Board`` into plain data that
``templates/games/_board.html`` draws, ``move_list`` the move list's entries into
the lines ``templates/games/_move_list.html`` prints; no HTML is built here.  Piece
names are marked for translation; images are our own SVGs under
``static/games/pieces/``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

from games.rules.base import BLACK, CHANCE, FILES, WHITE, Board, square_name

# letter -> human name, in legend order (the most important piece first).
PIECE_NAMES: dict[str, dict[str, Any]] = {
    "carolo": {
        "E": pgettext_lazy("Carolo piece", "Ego"),
        "C": pgettext_lazy("Carolo piece", "Carolo"),
        "B": pgettext_lazy("Carolo piece", "Bayard"),
        "H": pgettext_lazy("Carolo piece", "Hubris"),
        "A": pgettext_lazy("Carolo piece", "Aymon"),
    },
    "carge": {
        "P": pgettext_lazy("Carge piece", "pawn"),
        "S": pgettext_lazy("Carge piece", "stack"),
    },
    "rococo": {
        "K": pgettext_lazy("Rococo piece", "king"),
        "Q": pgettext_lazy("Rococo piece", "pushme-pullyu"),
        "R": pgettext_lazy("Rococo piece", "swapper"),
        "N": pgettext_lazy("Rococo piece", "long leaper"),
        "B": pgettext_lazy("Rococo piece", "chameleon"),
        "M": pgettext_lazy("Rococo piece", "immobilizer"),
        "P": pgettext_lazy("Rococo piece", "cannon pawn"),
    },
    "shuuro": {
        "K": pgettext_lazy("chess piece", "king"),
        "Q": pgettext_lazy("chess piece", "queen"),
        "R": pgettext_lazy("chess piece", "rook"),
        "B": pgettext_lazy("chess piece", "bishop"),
        "N": pgettext_lazy("chess piece", "knight"),
        "P": pgettext_lazy("chess piece", "pawn"),
    },
}
PIECE_NAMES["shuuro-mini"] = PIECE_NAMES["shuuro"]

# letter -> (the white piece, the black piece) in words, whole: in French the colour
# agrees with the name ("pile noire", "tour blanche").
PIECE_COLOUR_NAMES: dict[str, dict[str, tuple[Any, Any]]] = {
    "carolo": {
        "E": (
            pgettext_lazy("Carolo piece", "white Ego"),
            pgettext_lazy("Carolo piece", "black Ego"),
        ),
        "C": (
            pgettext_lazy("Carolo piece", "white Carolo"),
            pgettext_lazy("Carolo piece", "black Carolo"),
        ),
        "B": (
            pgettext_lazy("Carolo piece", "white Bayard"),
            pgettext_lazy("Carolo piece", "black Bayard"),
        ),
        "H": (
            pgettext_lazy("Carolo piece", "white Hubris"),
            pgettext_lazy("Carolo piece", "black Hubris"),
        ),
        "A": (
            pgettext_lazy("Carolo piece", "white Aymon"),
            pgettext_lazy("Carolo piece", "black Aymon"),
        ),
    },
    "carge": {
        "P": (
            pgettext_lazy("Carge piece", "white pawn"),
            pgettext_lazy("Carge piece", "black pawn"),
        ),
        "S": (
            pgettext_lazy("Carge piece", "white stack"),
            pgettext_lazy("Carge piece", "black stack"),
        ),
    },
    "rococo": {
        "K": (
            pgettext_lazy("Rococo piece", "white king"),
            pgettext_lazy("Rococo piece", "black king"),
        ),
        "Q": (
            pgettext_lazy("Rococo piece", "white pushme-pullyu"),
            pgettext_lazy("Rococo piece", "black pushme-pullyu"),
        ),
        "R": (
            pgettext_lazy("Rococo piece", "white swapper"),
            pgettext_lazy("Rococo piece", "black swapper"),
        ),
        "N": (
            pgettext_lazy("Rococo piece", "white long leaper"),
            pgettext_lazy("Rococo piece", "black long leaper"),
        ),
        "B": (
            pgettext_lazy("Rococo piece", "white chameleon"),
            pgettext_lazy("Rococo piece", "black chameleon"),
        ),
        "M": (
            pgettext_lazy("Rococo piece", "white immobilizer"),
            pgettext_lazy("Rococo piece", "black immobilizer"),
        ),
        "P": (
            pgettext_lazy("Rococo piece", "white cannon pawn"),
            pgettext_lazy("Rococo piece", "black cannon pawn"),
        ),
    },
    "shuuro": {
        "K": (
            pgettext_lazy("chess piece", "white king"),
            pgettext_lazy("chess piece", "black king"),
        ),
        "Q": (
            pgettext_lazy("chess piece", "white queen"),
            pgettext_lazy("chess piece", "black queen"),
        ),
        "R": (
            pgettext_lazy("chess piece", "white rook"),
            pgettext_lazy("chess piece", "black rook"),
        ),
        "B": (
            pgettext_lazy("chess piece", "white bishop"),
            pgettext_lazy("chess piece", "black bishop"),
        ),
        "N": (
            pgettext_lazy("chess piece", "white knight"),
            pgettext_lazy("chess piece", "black knight"),
        ),
        "P": (
            pgettext_lazy("chess piece", "white pawn"),
            pgettext_lazy("chess piece", "black pawn"),
        ),
    },
}
PIECE_COLOUR_NAMES["shuuro-mini"] = PIECE_COLOUR_NAMES["shuuro"]

# game key -> folder under static/games/pieces/ (Mini-Shuuro shares Shuuro's set)
PIECE_SETS = {
    "carolo": "carolo",
    "carge": "carge",
    "rococo": "rococo",
    "shuuro": "shuuro",
    "shuuro-mini": "shuuro",
}

SIDE_NAMES = {WHITE: gettext_lazy("White"), BLACK: gettext_lazy("Black")}

# screen side of a board side; a flipped board turns north to south, east to west
_SCREEN_SIDE = {
    False: {"n": "n", "e": "e", "s": "s", "w": "w"},
    True: {"n": "s", "e": "w", "s": "n", "w": "e"},
}


def piece_image(game_key: str, letter: str) -> str:
    """The static path of a piece's SVG, e.g. ``games/pieces/carolo/wE.svg``."""
    colour = "w" if letter.isupper() else "b"
    return f"games/pieces/{PIECE_SETS[game_key]}/{colour}{letter.upper()}.svg"


def piece_class(letter: str) -> str:
    """The class that draws a piece on a board square, e.g. ``wE``; each set's
    stylesheet (``pieces_css``) gives it its image."""
    return f"{'w' if letter.isupper() else 'b'}{letter.upper()}"


# The games whose boards have barriers or pieces in hand: their pages add hands.css.
HAND_GAMES = frozenset({"carge", "shuuro", "shuuro-mini"})


def pieces_css(game_key: str) -> str:
    """The static path of the stylesheet of a game's piece images on the board."""
    return f"games/pieces/{PIECE_SETS[game_key]}/pieces.css"


def _static_url(path: str) -> str:
    # imported late: this module stays importable without configured settings
    from django.templatetags.static import static

    return static(path)


def legend(game_key: str) -> list[tuple[str, Any, str]]:
    """(letter, name, image url) for each kind of piece of a game, White's images."""
    return [
        (letter, name, _static_url(piece_image(game_key, letter)))
        for letter, name in PIECE_NAMES[game_key].items()
    ]


def _piece_words(game_key: str, letter: str) -> tuple[str, str, str]:
    """(colour, name, "white Ego") for a FEN letter."""
    upper = letter.upper()
    name = PIECE_NAMES[game_key].get(upper, upper)
    white, black = PIECE_COLOUR_NAMES[game_key].get(upper, (upper, upper.lower()))
    return (WHITE, str(name), str(white)) if letter.isupper() else (BLACK, str(name), str(black))


def barrier_squares(barrier: str) -> tuple[str, str]:
    """The two squares a Carge barrier lies between: ``b2n`` -> (b2, b3), ``c3e`` -> (c3, d3)."""
    square, side = barrier[:-1], barrier[-1]
    file, rank = FILES.index(square[0]), int(square[1:]) - 1
    return square, square_name(file, rank + 1) if side == "n" else square_name(file + 1, rank)


def _neighbours_across_barriers(board: Board) -> dict[str, list[tuple[str, str]]]:
    """square -> [(board side "n"/"e"/"s"/"w", square on the other side)]."""
    found: dict[str, list[tuple[str, str]]] = {}
    for barrier in board.barriers:
        side = barrier[-1]
        square, other = barrier_squares(barrier)
        found.setdefault(square, []).append((side, other))
        found.setdefault(other, []).append(({"n": "s", "e": "w"}[side], square))
    return found


def _marks(marks: Iterable[str] | Mapping[str, str]) -> dict[str, str]:
    if isinstance(marks, Mapping):
        return dict(marks)
    return {square: "" for square in marks}


MARK_WORDS = {"check": gettext_lazy("in check")}


def board_context(
    game_key: str,
    board: Board,
    *,
    flip: bool = False,
    selectable: Iterable[str] = (),
    targets: Iterable[str] = (),
    last_move: Iterable[str] = (),
    marks: Iterable[str] | Mapping[str, str] = (),
    legal: Mapping[str, Iterable[str]] | None = None,
    selected: str | None = None,
    pending: Iterable[str] = (),
    interactive: bool | None = None,
) -> dict[str, Any]:
    """Everything ``games/_board.html`` needs to draw ``board``.

    ``flip`` draws the board from Black's side (rank 1 at the top, file a at the
    right).  ``legal`` maps each square the player may act from to the squares
    it may go to; when given, the board is interactive, ``selectable`` defaults
    to its keys and, with ``selected``, ``targets`` to that square's moves.
    ``marks`` is a list of squares, or a mapping square -> kind ("check").
    ``pending`` are the squares of a chosen move waiting for the player's "Confirm".
    ``interactive`` forces buttons on or off (default: on when ``legal``,
    ``selectable`` or ``targets`` is given).
    """
    names = PIECE_NAMES[game_key]
    selectable = set(selectable)
    targets = set(targets)
    if legal is not None:
        if not selectable:
            selectable = {square for square, goes in legal.items() if goes}
        if selected and not targets:
            targets = set(legal.get(selected, ()))
    if interactive is None:
        interactive = legal is not None or bool(selectable or targets)
    last = set(last_move)
    pending = set(pending)
    marked = _marks(marks)
    across = _neighbours_across_barriers(board)
    active = selectable | targets | ({selected} if selected else set())
    screen = _SCREEN_SIDE[bool(flip)]

    file_order = list(range(board.files))
    rank_order = list(range(board.ranks))
    if flip:
        file_order.reverse()  # file a at the right
    else:
        rank_order.reverse()  # highest rank at the top

    rows = []
    for row_index, rank in enumerate(rank_order, start=1):
        row = []
        for col_index, file in enumerate(file_order, start=1):
            square = square_name(file, rank)
            letter = board.pieces.get(square, "")
            light = (file + rank) % 2 == 1  # a1 is dark
            plinth = square in board.plinths
            edge = square in board.edge
            classes = [] if light else ["d"]  # a dark square
            cell: dict[str, Any] = {
                "square": square,
                "file": file,
                "rank": rank,
                "row": row_index,
                "col": col_index,
                "light": light,
                "piece": letter,
                "kind": letter.upper(),
                "colour": "",
                "piece_name": "",
                "piece_class": "",
                "plinth": plinth,
                "edge": edge,
            }
            if letter:
                colour, name, words = _piece_words(game_key, letter)
                cell.update(
                    colour=colour,
                    piece_name=name,
                    piece_class=piece_class(letter),
                )
                if plinth:
                    words = _("%(piece)s on a plinth") % {"piece": words}
                elif edge:
                    words = _("%(piece)s on the edge") % {"piece": words}
            elif plinth:
                words = _("plinth")
            elif edge:
                words = _("edge")
            else:
                words = _("empty")
            parts = [square, words]

            if edge:
                classes.append("sq-edge")
            if plinth:
                classes.append("sq-plinth")
            sides = sorted((screen[side] for side, _o in across.get(square, ())), key="nesw".index)
            classes.extend(f"sq-barrier-{side}" for side in sides)
            if square in across:
                others = sorted(o for _s, o in across[square])
                parts.append(_("barrier towards %(squares)s") % {"squares": ", ".join(others)})
            if square in last:
                classes.append("sq-last-move")
                parts.append(_("last move"))
            if square in pending:
                classes.append("sq-pending")
                parts.append(_("move to confirm"))
            if square == selected:
                classes.append("sq-selected")
                parts.append(_("selected"))
            if square in selectable and square != selected:
                classes.append("sq-selectable")
            if square in targets:
                classes.append("sq-target")
                classes.append("sq-capture" if letter else "sq-target-empty")
                parts.append(_("possible move"))
            if square in marked:
                kind = marked[square]
                classes.append("sq-mark")
                if kind:
                    classes.append(f"sq-mark-{kind}")
                    if kind in MARK_WORDS:
                        parts.append(str(MARK_WORDS[kind]))
            cell.update(
                barriers=tuple(sides),
                last_move=square in last,
                selected=square == selected,
                selectable=square in selectable,
                target=square in targets,
                capture=square in targets and bool(letter),
                mark=marked.get(square),
                disabled=bool(interactive and active and square not in active),
                label=", ".join(str(p) for p in parts),
                classes=" ".join(classes),
            )
            row.append(cell)
        rows.append(row)

    bottom = BLACK if flip else WHITE
    top = WHITE if flip else BLACK
    hands = {side: _hand(game_key, board, side, selectable, selected) for side in (WHITE, BLACK)}
    has_hands = any(hand["items"] for hand in hands.values())
    return {
        "game": game_key,
        "files": board.files,
        "ranks": board.ranks,
        "flip": bool(flip),
        "interactive": bool(interactive),
        "selected": selected,
        "rows": rows,
        "pieces_css": pieces_css(game_key),
        "hands_css": game_key in HAND_GAMES,
        "file_labels": [FILES[f] for f in file_order],
        "rank_labels": [str(r + 1) for r in rank_order],
        "hands": hands,
        "has_hands": has_hands,
        "hand_top": hands[top] if has_hands else None,
        "hand_bottom": hands[bottom] if has_hands else None,
        "names": names,
        "label": _("Board, %(side)s at the bottom") % {"side": SIDE_NAMES[bottom]},
        # for the form the partial draws around an interactive board
        "action": "",
        "form_id": "",
        "hidden": [("from", selected)] if selected else [],
    }


def _hand(
    game_key: str, board: Board, side: str, selectable: set[str], selected: str | None
) -> dict[str, Any]:
    """One side's pieces in hand, in legend order; hand pieces are named "@Q" / "@q"."""
    counts = {}
    for letter, count in board.hands.get(side, {}).items():
        letter = letter.upper() if side == WHITE else letter.lower()
        if count > 0 and letter.upper() in PIECE_NAMES[game_key]:
            counts[letter] = counts.get(letter, 0) + count
    order = list(PIECE_NAMES[game_key])
    items = []
    for letter in sorted(counts, key=lambda x: (order.index(x.upper()), x)):
        _colour, name, words = _piece_words(game_key, letter)
        key = f"@{letter}"
        items.append(
            {
                "letter": letter,
                "key": key,
                "count": counts[letter],
                "piece_name": name,
                "piece_class": piece_class(letter),
                "selectable": key in selectable,
                "selected": key == selected,
                "label": _("%(count)s × %(piece)s") % {"count": counts[letter], "piece": words},
            }
        )
    return {
        "side": side,
        "items": items,
        "label": _("%(side)s’s pieces in hand") % {"side": SIDE_NAMES[side]},
        "empty_text": _("No pieces in hand"),
    }


# the move list's word for who moved; a side's whole recruitment (Shuuro) has its own
MOVER_WORDS = {**SIDE_NAMES, CHANCE: gettext_lazy("Dice")}
ARMY_WORDS = {WHITE: gettext_lazy("White's army:"), BLACK: gettext_lazy("Black's army:")}
# the dice's moves as stored (Shuuro: "roll 3,5", "first w") -> the list's words.
# Shuuro's dice say who goes first twice, in the same words: who deploys first
# (before the first placement), then who moves first (after the last one).
ROLL_RE = re.compile(r"roll ([1-6]),([1-6])")
FIRST_WORDS = {
    ("first w", "deployment"): gettext_lazy("White deploys first"),
    ("first b", "deployment"): gettext_lazy("Black deploys first"),
    ("first w", "fight"): gettext_lazy("White moves first"),
    ("first b", "fight"): gettext_lazy("Black moves first"),
}
FIRSTS = frozenset(text for text, _phase in FIRST_WORDS)


def chance_words(text: str, phase: str) -> str:
    """A dice move in words, in the ``phase`` of the position it was rolled in:
    "roll 3,5" -> "3, 5", "first w" -> "White deploys first" or "White moves first"."""
    roll = ROLL_RE.fullmatch(text)
    if roll:
        return f"{roll[1]}, {roll[2]}"
    return str(FIRST_WORDS.get((text, phase), text))


def roll_phases(entries: Iterable[Any], placed: bool = False) -> dict[int, str]:
    """The phase each who-goes-first roll of ``entries`` (by number) was rolled in:
    deployment until a piece has been placed (``placed``: before ``entries``), the
    fight after."""
    phases = {}
    for entry in entries:
        if entry.side == CHANCE and entry.text in FIRSTS:
            phases[entry.number] = "fight" if placed else "deployment"
        elif not entry.army and "@" in entry.text:
            placed = True
    return phases


def row_of(side: str, army: bool = False) -> str:
    """The class of a move list's line: "w" for White's move, in the list's first
    column; "" for Black's, in the second; an army, or a roll of the dice, on a row
    of its own."""
    if army:
        return "army"
    if side == CHANCE:
        return "dice"
    return "w" if side == WHITE else ""


def running(entries: Iterable[Any]) -> frozenset[int]:
    """The numbers of the moves of ``entries`` made by the side that made the move
    before (an army and the dice aside): Shuuro's deployment, where a side with
    nothing left to place is skipped, or its first fight move after the last
    placement."""
    found, last = set(), None
    for entry in entries:
        if entry.army or entry.side == CHANCE:
            continue
        if entry.side == last:
            found.add(entry.number)
        last = entry.side
    return frozenset(found)


def move_rows(
    entries: Sequence[Any],
    shown: int,
    phases: dict[int, str] | None = None,
    again: frozenset[int] | None = None,
) -> list[dict[str, Any]]:
    """The lines ``games/_move_list.html`` prints, one per entry of the move list
    (``number``, ``step``, ``side``, ``text``, ``hidden``, ``army``); ``shown`` is the
    number of the entry whose position the board shows (0: none); ``phases`` and
    ``again`` are worked out from ``entries`` when not given (``roll_phases``,
    ``running``: given when ``entries`` are the end of a list).

    A move says who made it by its column (White's first, Black's second, a header
    names them), and in words (``mover``) only when its side moved before it too, which
    the columns show but a screen reader, reading line by line, would not say; a row of
    its own has words too (an army's side, the dice).  Every value is ready to print:
    a page without the list gets all of it, and working out each line's link and
    words in the template took most of a long game's replay step (30 of 40 ms at
    300 moves).
    """
    if phases is None:
        phases = roll_phases(entries)
    if again is None:
        again = running(entries)
    # the catalogue's words, printed as {% translate %} prints them: unescaped
    movers = {side: mark_safe(str(word)) for side, word in MOVER_WORDS.items()}
    armies = {side: mark_safe(str(word)) for side, word in ARMY_WORDS.items()}
    return [
        {
            "number": str(entry.number),  # strings: a number would be localised
            "step": str(entry.step),
            "current": entry.number == shown,
            "row": row_of(entry.side, entry.army),
            "mover": armies[entry.side]
            if entry.army
            else movers[entry.side]
            if entry.side == CHANCE or entry.number in again
            else "",
            "text": chance_words(entry.text, phases.get(entry.number, ""))
            if entry.side == CHANCE
            else entry.text,
            "hidden": entry.hidden,
        }
        for entry in entries
    ]


_SEEN = re.compile(r"(\d{1,6})\.(\d{1,6})\.([0-9a-f]{12})")


def move_list(entries: Sequence[Any], shown: int, seen: str | None = None) -> dict[str, Any]:
    """The move list as the game's live part prints it, for a page that holds the
    list whose ``key`` is ``seen`` (None: a page without it).

    ``key`` names this list, its lines, its current one and the language of its words
    (the mover's, the dice's); the page sends it back
    with its next request (the ``X-Move-List`` header).  When every line ``seen``
    names is still the same, the page keeps its list and gets only the new lines
    (``append``) and the lines whose current mark moved (``replace``), so that what
    a move or a poll sends does not grow with the game; else ``rows``, every line.
    """
    seen_match = _SEEN.fullmatch(seen or "")
    seen_count, seen_shown, seen_digest = (
        (int(seen_match[1]), int(seen_match[2]), seen_match[3]) if seen_match else (0, 0, "")
    )
    hasher = hashlib.blake2b(digest_size=6)
    hasher.update(f"{get_language()}\n".encode())
    prefix = None
    for count, entry in enumerate(entries, start=1):
        line = f"{entry.step}|{entry.side}|{entry.text}|{entry.hidden:d}{entry.army:d}\n"
        hasher.update(line.encode())
        if count == seen_count:
            prefix = hasher.hexdigest()
    key = f"{len(entries)}.{shown}.{hasher.hexdigest()}"
    phases, again = roll_phases(entries), running(entries)
    if not seen_count or prefix != seen_digest:
        return {
            "key": key,
            "rows": move_rows(entries, shown, phases, again),
            "append": [],
            "replace": [],
        }
    marks = {seen_shown, shown} - {0} if seen_shown != shown else set()
    return {
        "key": key,
        "rows": None,
        "append": move_rows(entries[seen_count:], shown, phases, again),
        "replace": move_rows(
            [entries[n - 1] for n in sorted(marks) if n <= seen_count], shown, phases, again
        ),
    }
