"""The explore board: a line of moves tried from a position of a game, never stored.

``/game/<id>/explore?from=<step>&line=<moves>`` starts from the position a viewer
sees at replay step ``from`` of the game page (``?ply=``; none or out of range: the
current position) and plays ``line``, move texts separated by spaces.  Every move is
checked by the engine on every request, and the line is cut at the first one it
refuses.  Nothing is written: no row of the game is locked, changed or read for
update, and ``services.play_move`` is never called.

Secrecy: the start is the position the viewer may see (``presenters.view_position``,
as the game page builds its replay), never the full one.  Shuuro's recruitment and
plinth dice have nothing to explore on the board, and no move is played there.
Rules that read the game's history (threefold repetition, Shuuro's fifty-move rule)
do not apply: only the endings a position shows by itself do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from games import move_entry, plans, presenters, render, rules
from games.endings import reason_words
from games.models import Game
from games.rules.base import RulesError

MAX_MOVES = 100  # moves in a line
MAX_LINE_CHARS = 2000  # characters of the ``line`` parameter read
MAX_CHANCE = 6  # die outcomes offered as buttons (who goes first: 2); more: none
SETUP_PHASES = frozenset({"recruitment", "plinths"})  # Shuuro: nothing on the board yet


@dataclass(frozen=True)
class Played:
    """One move of the explored line."""

    side: str
    text: str
    phase: str  # the phase of the position it was played in


@dataclass
class Line:
    """A line replayed from ``start``: the moves the engine accepted, the position
    after them, and why the rest was dropped (words, "" when nothing was)."""

    start: rules.Position
    position: rules.Position
    moves: list[Played] = field(default_factory=list)
    problem: str = ""


def mover(position) -> str | None:
    """Who plays the next move of a line: one side, or CHANCE for a die whose few
    outcomes are public; None when nothing can be explored (a secret or simultaneous
    phase, Shuuro's recruitment and plinths, or the end of the game)."""
    if position.is_secret or position.phase in SETUP_PHASES or len(position.to_act) != 1:
        return None
    return position.to_act[0]


def entry_of(position) -> move_entry.Entry:
    """The board moves of the side to move (both sides take turns in a line)."""
    side = mover(position)
    return move_entry.Entry.of(position, side) if side in rules.SIDES else move_entry.Entry()


def chance_moves(position) -> list[str]:
    """The die's outcomes a line may take (Shuuro's "first w", "first b")."""
    if mover(position) != rules.CHANCE:
        return []
    texts = [position.move_text(move) for move in position.legal_moves(rules.CHANCE)]
    return texts if len(texts) <= MAX_CHANCE else []


def nothing_to_explore(position) -> bool:
    """A position of a phase with no board moves to try, though the game goes on."""
    return mover(position) is None and bool(position.to_act)


def split_line(text: str) -> tuple[list[str], str]:
    """The move texts of a ``line`` parameter, and why some were dropped (words)."""
    problem = ""
    if len(text) > MAX_LINE_CHARS:
        text = text[:MAX_LINE_CHARS].rsplit(" ", 1)[0]
        problem = _("The line is too long: only its start is shown.")
    return text.split(), problem


def replay(start, texts: list[str]) -> Line:
    """Play ``texts`` from ``start``, each checked by the engine; stop at the first
    one that is not a move to explore there, or after MAX_MOVES moves.  A move text
    with a space (a die's "first w") may come as two words."""
    line = Line(start, start)
    position, at = start, 0
    while at < len(texts):
        if len(line.moves) == MAX_MOVES:
            line.problem = _("A line has at most %(count)s moves: the rest was dropped.") % {
                "count": MAX_MOVES
            }
            break
        text, used = texts[at], 1
        offered = _offered(position)
        if text not in offered and at + 1 < len(texts) and f"{text} {texts[at + 1]}" in offered:
            text, used = f"{text} {texts[at + 1]}", 2
        if text not in offered:
            line.problem = _(
                "Move %(number)s of the line, %(move)s, cannot be played: %(reason)s. "
                "The line stops before it."
            ) % {
                "number": len(line.moves) + 1,
                "move": text[:64],
                "reason": _refusal(position, text),
            }
            break
        side, phase = mover(position), position.phase
        position = position.play(position.parse_move(text, side))
        line.moves.append(Played(side, text, phase))
        at += used
    line.position = position
    return line


def extend(line: Line, text: str) -> Line:
    """``line`` with ``text`` (a click's move) played after it: checked as ``replay``
    checks a move, without replaying the line again (a long line costs tens of ms)."""
    position = line.position
    if len(line.moves) == MAX_MOVES or text not in _offered(position):
        return replay(line.start, [*(move.text for move in line.moves), text])  # says why
    side, phase = mover(position), position.phase
    position = position.play(position.parse_move(text, side))
    return Line(line.start, position, [*line.moves, Played(side, text, phase)])


def _offered(position) -> set[str]:
    return {move.text for move in entry_of(position).moves} | set(chance_moves(position))


def _refusal(position, text: str) -> str:
    """Why ``text`` is not a move to explore in ``position``, in words."""
    if nothing_to_explore(position):
        return _("there is nothing to explore on the board before the armies are deployed")
    side = mover(position)
    if side is None:
        return _("the game is over")
    try:
        position.parse_move(text, side)
    except RulesError as error:
        return error.render(_)
    return _("it is not a move on the board")


def nothing_words() -> str:
    """What the page says where ``nothing_to_explore``: Shuuro's setup phases."""
    return _("Nothing to explore on the board before the armies are deployed.")


# -- the page ------------------------------------------------------------------------


@dataclass
class Start:
    """Where a line starts: the viewer's view of the game at replay step ``step``."""

    position: rules.Position  # as the viewer may see it
    step: int | None  # None: the current position
    moves: list[presenters.ListedMove]  # the game's moves the viewer may see
    last: tuple[str, ...]  # the squares of the game's last move before it


def start_of(game: Game, side: str | None, step: int | None) -> Start:
    """The position at replay step ``step`` (``presenters.present``'s ``replay``) as
    ``side`` may see it: two small queries, the moves' texts and one FEN."""
    moves = presenters.visible_moves(game, side)
    if step is not None and not 0 <= step < len(moves):
        step = None  # past the end: the current position
    full = presenters.position_at(game, moves, step)
    last: tuple[str, ...] = ()
    for move in reversed(moves[: len(moves) if step is None else step]):
        if move.side != rules.CHANCE:
            last = move_entry.squares_of(move.text)
            break
    position = presenters.view_position(full, side, over=game.shows_all)
    return Start(position, step, moves, last)


def explore_url(game_id: int, step: int | None, moves=(), *, sel=None, to=None) -> str:
    """The canonical address of a line: ``from``, ``line``, and the entry state."""
    params = {}
    if step is not None:
        params["from"] = step
    if moves:
        params["line"] = " ".join(move.text if isinstance(move, Played) else move for move in moves)
    params.update((key, value) for key, value in (("sel", sel), ("to", to)) if value)
    url = reverse("game_explore", args=[game_id])
    return f"{url}?{urlencode(params)}" if params else url


def explore(game: Game, side: str | None, step: int | None, line_text: str) -> tuple[Start, Line]:
    """The start and the line replayed from it (the line's problems in ``problem``)."""
    start = start_of(game, side, step)
    texts, too_long = split_line(line_text)
    line = replay(start.position, texts)
    line.problem = " ".join(words for words in (too_long, line.problem) if words)
    return start, line


def context(
    game: Game,
    side: str | None,
    start: Start,
    line: Line,
    state: presenters.EntryState,
    notice: str = "",
    flipped: bool = False,
) -> dict:
    """Everything games/explore.html draws; ``flipped`` as on the game page."""
    position = line.position
    moves = line.moves
    step = start.step
    entry = entry_of(position)
    selected = state.selected if state.selected in entry.starts() else None
    choices = entry.between(selected, state.to) if state.to else []
    if len(choices) < 2:
        choices = []
    to_move = mover(position)

    def with_move(text: str) -> str:
        return explore_url(game.pk, step, [*moves, text])

    drawn = presenters.view_board(position, side)
    board = render.board_context(
        game.variant,
        drawn,
        marks=presenters.check_marks(position, drawn),
        flip=(side == rules.BLACK) != flipped,
        legal=entry.legal if entry.moves else None,
        selectable=entry.starts() if entry.moves else (),
        selected=selected,
        targets=[] if selected else entry.placements,
        last_move=move_entry.squares_of(moves[-1].text) if moves else start.last,
        interactive=bool(entry.moves),
    )
    board["form_id"] = "explore-board"
    hidden = [("from", step), ("line", " ".join(m.text for m in moves)), ("sel", selected)]
    listed = presenters.move_list(game.variant, start.moves)
    at = len(start.moves) if step is None else step
    shown = next((item for item in listed if at in item.steps), None)
    return {
        "game": game,
        "side": side,
        "board": board,
        "hidden": [(name, value) for name, value in hidden if value not in (None, "")],
        "action": reverse("game_explore", args=[game.pk]),
        "url": explore_url(game.pk, step, moves, sel=selected, to=state.to if choices else None),
        "from_words": _from_words(step, shown, len(listed), at),
        "status": _status(game, position, to_move),
        "nothing": nothing_words() if nothing_to_explore(position) else "",
        "line": [
            {
                "row": render.row_of(move.side),
                "mover": render.MOVER_WORDS[move.side] if move.side == rules.CHANCE else "",
                "text": render.chance_words(move.text, move.phase)
                if move.side == rules.CHANCE
                else move.text,
                "url": explore_url(game.pk, step, moves[:n]),
                "current": n == len(moves),
            }
            for n, move in enumerate(moves, start=1)
        ],
        "back_url": explore_url(game.pk, step, moves[:-1]) if moves else None,
        "restart_url": explore_url(game.pk, step) if moves else None,
        "game_url": reverse("game", args=[game.pk]) + (f"?ply={step}" if step is not None else ""),
        "choices": [
            (m.text, presenters.choice_words(game.variant, m.text), with_move(m.text))
            for m in choices
        ],
        "barrier_moves": [
            (move.text, words, with_move(move.text))
            for move, words in presenters.barrier_choices(
                position, to_move, selected, entry.barrier_moves(selected)
            )
        ]
        if selected
        else [],
        "chance": [
            (render.chance_words(text, position.phase), with_move(text))
            for text in chance_moves(position)
        ],
        "fen": position.fen(),
        "problem": line.problem,
        "notice": notice,
    }


def plan_offer(user, game: Game, side: str | None, start: Start, line: Line) -> dict | None:
    """The form that saves the line as the player's conditional moves (games.plans),
    on a line from the game's current position while their opponent alone is to move;
    ``ready`` once it has a reply to the opponent's first move and ends with one, the
    turn passing at each move (no die, no second placement in a row: a plan takes none)."""
    if side is None or start.step is not None or not plans.may_plan(user, game, side):
        return None
    texts = [move.text for move in line.moves]
    turns = (rules.opponent(side), side)
    passes = all(move.side == turns[n % 2] for n, move in enumerate(line.moves))
    ready = passes and len(texts) >= 2 and len(texts) % 2 == 0
    return {"ply": game.visible_ply(side), "line": " ".join(texts), "ready": ready}


def _from_words(step: int | None, shown, total: int, at: int) -> str:
    if step is None:
        return _("From the game’s current position.")
    if shown is None:
        return _("From the game’s start position.")
    words = {"n": shown.number, "total": total}
    if at != shown.step:  # inside a Shuuro recruitment
        return _("From the position during the game’s move %(n)s of %(total)s.") % words
    return _("From the position after the game’s move %(n)s of %(total)s.") % words


def _status(game: Game, position, to_move: str | None) -> dict:
    """The explored position as the engine gives it: who moves, check, an ending."""
    status = {"turn": "", "check": False, "result": "", "phase": "", "barriers": ""}
    if position.phase in presenters.PHASE_WORDS:
        status["phase"] = presenters.PHASE_WORDS[position.phase]
    if game.options.get("barrier_rule") == "on":
        white, black = position.barrier_moves_left
        status["barriers"] = _("Barrier moves left: White %(white)s, Black %(black)s.") % {
            "white": white,
            "black": black,
        }
    ending = position.outcome()
    if ending is not None:
        status["result"] = reason_words(ending.reason, ending.winner)
        return status
    if to_move == rules.CHANCE and position.phase == "deployment":
        status["turn"] = _("The dice decide who deploys first.")
    elif to_move == rules.CHANCE and position.phase == "fight":
        status["turn"] = _("The dice decide who moves first.")
    elif to_move == rules.CHANCE:
        status["turn"] = _("The dice are rolled next.")
    elif to_move in rules.SIDES:
        status["turn"] = _("%(side)s to move.") % {"side": render.SIDE_NAMES[to_move]}
        in_check = getattr(position, "in_check", None)
        status["check"] = bool(in_check and in_check())
    return status
