"""The rules pages: which text to show in which language, and their diagrams.

A rules page is ``docs/rules/<game>.md`` (English) or ``docs/rules/<game>.fr.md``
(French), in Markdown.  A line of its own of the form

    [diagram carolo "ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1" marks=e4,d5 caption="…"]

becomes a ``<figure>`` with the position drawn by the site's board renderer
(``games/_board.html``, not interactive), the marked squares highlighted and the
caption below it.  Instead of a FEN a diagram may name ``seed=2`` (the Rococo rule
text's diagrams, ``seed=5,6`` for two boards side by side, with their own marks)
or ``preset=windmill`` (a Carge barrier layout on an empty board).  The line
``[legend]`` places the piece legend.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from markdown import markdown

from games import render
from games.rules import get as get_rules
from games.rules.base import Board, square_name

# The language of each rules text besides English, by file suffix.
TRANSLATED = ("fr",)

_MARKER = re.compile(r"^\[(diagram|legend)\b(.*)\]\s*$", re.MULTILINE)
_PLACEHOLDER = "RULESPAGEBLOCK{}END"


class DiagramError(ValueError):
    """A diagram line that cannot be drawn (a typo in a rules text)."""


@dataclass
class Diagram:
    game: str
    boards: list[Board]
    marks: list[list[str]]
    caption: str
    contexts: list[dict] = field(default_factory=list)


def rules_file(game: str, language: str | None = None) -> Path:
    """The rules text of ``game`` to show in ``language`` (default: the active one)."""
    folder = Path(settings.BASE_DIR) / "docs" / "rules"
    language = (language or get_language() or "en").split("-")[0].lower()
    if language in TRANSLATED:
        translated = folder / f"{game}.{language}.md"
        if translated.exists():
            return translated
    return folder / f"{game}.md"


def render_rules(game: str, text: str) -> SafeString:
    """The HTML of a rules text, diagrams and legend included.

    The rules texts are the project's own files, so their HTML is trusted.
    """
    blocks: list[str] = []

    def keep(match: re.Match) -> str:
        kind, args = match.group(1), match.group(2)
        if kind == "legend":
            html = render_to_string(
                "rules/_legend.html", {"legend": render.legend(legend_key(game))}
            )
        else:
            html = render_diagram(parse_diagram(args))
        blocks.append(html)
        return "\n" + _PLACEHOLDER.format(len(blocks) - 1) + "\n"

    source = _MARKER.sub(keep, text)
    html = markdown(source, extensions=["tables", "attr_list"])
    for index, block in enumerate(blocks):
        token = _PLACEHOLDER.format(index)
        html = html.replace(f"<p>{token}</p>", block).replace(token, block)
    return mark_safe(html)


def has_legend(text: str) -> bool:
    return any(m.group(1) == "legend" for m in _MARKER.finditer(text))


def legend_key(game: str) -> str:
    return "shuuro" if game == "shuuro-mini" else game


def parse_diagram(args: str) -> Diagram:
    """A Diagram from the text after ``[diagram`` (game, FEN or seed/preset, options)."""
    try:
        words = shlex.split(args)
    except ValueError as e:
        raise DiagramError(f"diagram {args!r}: {e}") from None
    if not words:
        raise DiagramError("a diagram needs a game")
    game, rest = words[0], words[1:]
    if game not in render.PIECE_NAMES:
        raise DiagramError(f"unknown game {game!r} in a diagram")
    options: dict[str, str] = {}
    fens: list[str] = []
    for word in rest:
        name, eq, value = word.partition("=")
        if eq and name in ("marks", "caption", "seed", "preset"):
            options[name] = value
        else:
            fens.append(word)
    marks = _squares(options.get("marks", ""))
    caption = options.get("caption", "")
    boards: list[Board] = []
    all_marks: list[list[str]] = []
    if "seed" in options:
        if game != "rococo":
            raise DiagramError("seed= names the Rococo rule text's diagrams")
        from games.rules.rococo_diagrams import seed_diagrams

        seeds = seed_diagrams()
        for number in options["seed"].split(","):
            try:
                seed = seeds[int(number) - 1]
            except (ValueError, IndexError):
                raise DiagramError(f"no seed diagram {number!r}") from None
            boards.append(_rococo_board(seed.position))
            all_marks.append(list(seed.marked) + marks)
            caption = caption or seed.caption
    elif "preset" in options:
        if game != "carge":
            raise DiagramError("preset= names a Carge barrier layout")
        layouts = {key: barriers for key, _label, barriers in get_rules("carge").presets()}
        if options["preset"] not in layouts:
            raise DiagramError(f"no Carge layout {options['preset']!r}")
        barriers = ",".join(sorted(layouts[options["preset"]])) or "-"
        boards.append(_board(game, f"5/5/5/5/5 w {barriers} 8,8 0,0"))
        all_marks.append(marks)
    else:
        if not fens:
            raise DiagramError(f"diagram {args!r} has no position")
        for fen in fens:
            boards.append(_board(game, fen))
            all_marks.append(marks)
    for board, squares in zip(boards, all_marks, strict=True):
        outside = [s for s in squares if s not in _all_squares(board)]
        if outside:
            raise DiagramError(f"marks outside the board: {', '.join(outside)}")
    return Diagram(game, boards, all_marks, caption)


def render_diagram(diagram: Diagram) -> str:
    diagram.contexts = [
        render.board_context(diagram.game, board, marks=marks, interactive=False)
        for board, marks in zip(diagram.boards, diagram.marks, strict=True)
    ]
    for context in diagram.contexts:  # a mark must be heard as well as seen
        for row in context["rows"]:
            for cell in row:
                if cell["mark"] is not None:
                    cell["label"] = ", ".join([cell["label"], _("marked")])
    return render_to_string("rules/_diagram.html", {"diagram": diagram})


def _squares(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


def _all_squares(board: Board) -> set[str]:
    return {square_name(f, r) for f in range(board.files) for r in range(board.ranks)}


def _board(game: str, fen: str) -> Board:
    if game == "rococo" and len(fen.split()) == 1:
        return _rococo_board(fen)
    try:
        return get_rules(game).from_fen(fen).board()
    except ValueError as e:
        raise DiagramError(f"{game} diagram {fen!r}: {e}") from None


def _rococo_board(ranks_text: str) -> Board:
    """A Rococo board from the board part of a FEN alone (diagrams need no kings).

    Read as vchess writes it: each digit of a run is added (``91`` is ten squares).
    """
    size = 10
    pieces: dict[str, str] = {}
    ranks = ranks_text.split("/")
    if len(ranks) != size:
        raise DiagramError(f"a Rococo board has {size} ranks: {ranks_text!r}")
    for row, text in enumerate(ranks):
        rank, file = size - 1 - row, 0
        for char in text:
            if char.isdigit():
                file += int(char)
            elif char.upper() in render.PIECE_NAMES["rococo"]:
                if file >= size:
                    break
                pieces[square_name(file, rank)] = char
                file += 1
            else:
                raise DiagramError(f"unknown Rococo piece {char!r}")
        if file != size:
            raise DiagramError(f"rank {rank + 1} of {ranks_text!r} is not ten squares")
    edge = frozenset(
        square_name(f, r)
        for f in range(size)
        for r in range(size)
        if f in (0, size - 1) or r in (0, size - 1)
    )
    return Board(files=size, ranks=size, pieces=pieces, edge=edge)
