"""A game as one viewer may see it: board, move list, status and actions as plain data.

Views call ``present()`` and hand the result to ``games/game.html``; every display
decision lives here.  Secrecy rule: until a game shows all (``Game.shows_all``),
the board and hands come only from ``view_fen(viewer side)``, and hidden moves of
the other side never reach the move list, the replay or the record.  A game that
ended in Shuuro's recruitment, before both armies were in, never shows all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from itertools import groupby
from operator import itemgetter

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import blocks
from games import (
    bot_play,
    chat,
    clock,
    material,
    move_entry,
    notes,
    plans,
    queries,
    render,
    rules,
    services,
)
from games.endings import result_words
from games.models import CHAT_MAX_LENGTH, NOTE_MAX_LENGTH, Challenge, Game, Move, Variant
from games.ratings import shown_ratings

SIDE_WORDS = render.SIDE_NAMES  # "White", "Black", as the board and the move list say

PHASE_WORDS = {
    "placement": gettext_lazy("placement"),
    "move": gettext_lazy("moves"),
    "recruitment": gettext_lazy("recruitment"),
    "plinths": gettext_lazy("plinths"),
    "deployment": gettext_lazy("deployment"),
    "fight": gettext_lazy("fight"),
}

RULES_PAGES = {"shuuro-mini": "shuuro"}


POLL_FIELDS = (
    "ply",
    "white_hidden",
    "black_hidden",
    "status",
    "draw_offer",
    "draw_declined",
    "white_to_act",
    "black_to_act",
    "deadline",
)


def poll_row(game_id: int, user) -> tuple[dict | None, str | None]:
    """A game's POLL_FIELDS (None: no such game) and ``user``'s side in it, in one
    small query: what a poll needs to tell whether anything changed."""
    fields = (*POLL_FIELDS, "white_id", "black_id", "ended_at", "bot_level")
    row = Game.objects.filter(pk=game_id).values(*fields).first()
    if row is None or not user.is_authenticated:
        return row, None
    return row, {row["white_id"]: rules.WHITE, row["black_id"]: rules.BLACK}.get(user.pk)


def poll_token(game, side: str | None) -> str:
    """What the page shows changes iff this does, for this viewer.

    Not ``game.version``: that also moves on the opponent's secret recruitment
    moves, and a page refreshing on each of them would count the opponent's
    purchases.  The deadline is in it because a vacation's end moves it.
    ``game`` may be a Game or a dict of POLL_FIELDS.
    """
    get = game.get if isinstance(game, dict) else lambda name: getattr(game, name)
    hidden = {rules.WHITE: get("white_hidden"), rules.BLACK: get("black_hidden")}
    others = sum(n for s, n in hidden.items() if s != side)
    deadline = get("deadline")
    declined = get("draw_declined")
    draw = get("draw_offer") or (f"declined_{declined}" if declined else "none")
    return "-".join(
        str(part)
        for part in (
            get("ply") - others,
            hidden.get(side, 0),
            get("status"),
            draw,
            int(get("white_to_act")),
            int(get("black_to_act")),
            int(deadline.timestamp()) if deadline else 0,
        )
    )


def rematch_row(game_id: int) -> dict | None:
    """The latest rematch offer of a game, as a poll needs it (one small query)."""
    rows = Challenge.objects.filter(rematch_of_id=game_id).order_by("-pk")
    return rows.values("pk", "status", "game_id", "challenger_id", "challenger__is_active").first()


def rematch_token(row: dict | None) -> str:
    """What the rematch part of an ended game's page shows changes iff this does."""
    return f"rematch-{row['pk']}-{row['status']}" if row else "rematch-none"


# How long after its end a game's page looks out for a rematch offer.
REMATCH_WATCH = timedelta(hours=1)


def polls_for_rematch(side: str | None, row: dict | None, game) -> bool:
    """Whether a player's page of an ended game asks for news of the rematch
    (``row``: ``rematch_row``; ``game``: a Game or a poll row).  While an offer waits
    for an answer: the offerer's page to be taken to the new game, the other's to
    see a cancel.  For an hour after the end, against a person, while no offer has
    been made: to show one as it comes.  Not otherwise: an old game's page costs
    no requests."""
    if side is None:
        return False
    if row is not None:
        return row["status"] == Challenge.Status.OPEN and row["challenger__is_active"]
    get = game.get if isinstance(game, dict) else lambda name: getattr(game, name)
    ended_at = get("ended_at")
    recent = ended_at is not None and timezone.now() - ended_at < REMATCH_WATCH
    return recent and get("bot_level") is None


@dataclass(frozen=True)
class ListedMove:
    number: int  # 1.. in the viewer's list (hidden moves of the other side don't count)
    ply: int
    side: str
    text: str
    hidden: bool


def visible_moves(game: Game, side: str | None) -> list[ListedMove]:
    """The moves ``side`` may see, in order: one query, texts only."""
    rows = (
        Move.objects.filter(game=game).order_by("ply").values_list("ply", "side", "text", "hidden")
    )
    return listed_moves(rows, side)


def game_moves(game_ids) -> dict[int, list[tuple]]:
    """Each of ``game_ids``' move rows (ply, side, text, hidden), in order, for
    ``listed_moves``: the moves of many games in one query."""
    rows = (
        Move.objects.filter(game__in=game_ids)
        .order_by("game_id", "ply")
        .values_list("game_id", "ply", "side", "text", "hidden")
    )
    return {pk: [row[1:] for row in group] for pk, group in groupby(rows, itemgetter(0))}


def listed_moves(rows, side: str | None) -> list[ListedMove]:
    """The moves of ``rows`` (ply, side, text, hidden; in order) that ``side`` may see:
    for moves read many games at once (``game_moves``)."""
    found = []
    for ply, mover, text, hidden in rows:
        if hidden and mover != side:
            continue
        found.append(ListedMove(len(found) + 1, ply, mover, text, hidden))
    return found


@dataclass(frozen=True)
class ListEntry:
    """One line of the move list: a move, or a side's whole recruitment (Shuuro)."""

    number: int  # 1.. as listed
    step: int  # the ListedMove.number (?ply=) of the position after it
    steps: tuple[int, ...]  # every ListedMove.number it stands for
    side: str
    text: str
    hidden: bool
    army: bool = False  # text is the army a side recruited, e.g. "Q 2R B N 3P"


ARMY_GAMES = ("shuuro", "shuuro-mini")
_RECRUITMENT = re.compile(r"[+-][KQRBNP]|done")


def move_list(variant: str, moves: list[ListedMove]) -> list[ListEntry]:
    """``moves`` as a player reads them.  In Shuuro every + and − of the recruitment
    is a move: each side's are one entry instead, at its last one, naming the army
    bought.  Only moves the viewer may see are in ``moves``, so the entries tell
    nothing of a secret army either."""
    armies: dict[str, list[ListedMove]] = {}
    if variant in ARMY_GAMES:
        for move in moves:
            if move.side in rules.SIDES and _RECRUITMENT.fullmatch(move.text):
                armies.setdefault(move.side, []).append(move)
    at_last = {army[-1].number: army for army in armies.values()}
    recruits = {move.number for army in armies.values() for move in army}
    entries = []
    for move in moves:
        army = at_last.get(move.number)
        if army is None and move.number in recruits:
            continue  # listed with the army, at its side's last recruitment move
        entries.append(
            ListEntry(
                number=len(entries) + 1,
                step=move.number,
                steps=tuple(m.number for m in army) if army else (move.number,),
                side=move.side,
                text=army_text(army) if army else move.text,
                hidden=move.hidden,
                army=army is not None,
            )
        )
    return entries


def army_text(moves: list[ListedMove]) -> str:
    """The army that recruitment moves (+Q, -Q, done) leave, King aside: "Q 2R B N 3P"."""
    counts = dict.fromkeys("QRBNP", 0)
    for move in moves:
        if move.text[1:] in counts:
            counts[move.text[1:]] += 1 if move.text[0] == "+" else -1
    army = " ".join(f"{n if n > 1 else ''}{letter}" for letter, n in counts.items() if n > 0)
    return army or "K"  # the King alone


def view_fen(position, side: str | None, *, over: bool = False) -> str:
    """The FEN of ``position`` (the full one) that ``side`` may see: all of it once the
    game is ``over`` with nothing left secret (``Game.shows_all``)."""
    return position.fen() if over else position.view_fen(side)


def view_position(position, side: str | None, *, over: bool = False):
    """``position`` as ``side`` may see it (``view_fen``)."""
    return position if over else type(position).from_fen(view_fen(position, side))


def view_board(position, side: str | None) -> rules.Board:
    board_for = getattr(position, "board_for", None)
    return board_for(side) if board_for else position.board()


def record_text(game: Game, side: str | None, rows: list[tuple] | None = None) -> str:
    """The game record the viewer may download: start, options, moves, current FEN.
    One query for the moves, none if their ``rows`` (``game_moves``) are given."""
    moves = visible_moves(game, side) if rows is None else listed_moves(rows, side)
    lines = [
        f"# {game.get_variant_display()} #{game.pk}: {game.white} (white) v {game.black} (black)",
        f"variant: {game.variant}",
        f"start: {view_fen(game.engine.from_fen(game.start_fen), side)}",
    ]
    for name, value in sorted(game.options.items()):
        lines.append(f"option: {name}={value}")
    if not game.is_active:
        lines.append(f"result: {game.winner or 'draw'} ({game.result_reason})")
    lines.append("")
    for move in moves:
        lines.append(f"{move.side} {move.text}")
    lines.append("")
    lines.append(f"fen: {view_fen(game.position(), side, over=game.shows_all)}")
    return "\n".join(lines) + "\n"


def position_at(game: Game, moves: list[ListedMove], step: int | None):
    """The whole position at replay step ``step`` of ``moves`` (``visible_moves``),
    None for the current one: at most one query, for that step's FEN."""
    if step is None:
        return game.position()
    fen = game.start_fen
    if step:
        fen = Move.objects.filter(game=game, ply=moves[step - 1].ply).values_list(
            "fen_after", flat=True
        )[0]
    return game.engine.from_fen(fen)


@dataclass
class EntryState:
    """The move being entered: a selected start, a destination to choose at, a move."""

    selected: str | None = None
    to: str | None = None
    confirm: str | None = None  # a move waiting for "Confirm"


def present(
    game: Game,
    user,
    *,
    replay: int | None = None,
    state: EntryState | None = None,
    notice: str = "",
    confirm_resign: bool = False,
    seen_list: str | None = None,
    flipped: bool = False,
) -> dict:
    """Everything games/game.html draws for ``user`` (None or anonymous: a spectator);
    ``seen_list``: the key of the move list the page holds (render.move_list);
    ``flipped``: the viewer turned the board round (Black's side at the bottom for
    White and a spectator, White's for Black)."""
    state = state or EntryState()
    side = game.side_of(user)
    moves = visible_moves(game, side)
    listed = move_list(game.variant, moves)
    if replay is not None and not 0 <= replay < len(moves):
        replay = None  # past the end: the current position
    live = replay is None
    full = position_at(game, moves, replay)
    position = view_position(full, side, over=game.shows_all)
    at = len(moves) if live else replay
    shown = next((entry for entry in listed if at in entry.steps), None)

    acting = live and game.is_active and side is not None and side in game.to_act()
    entry = move_entry.Entry.of(full, side) if acting else move_entry.Entry()
    selected = state.selected if state.selected in entry.starts() else None
    choices = entry.between(selected, state.to) if state.to else []
    if len(choices) < 2:
        choices = []
    confirm = state.confirm if acting and state.confirm else None

    last = ()
    for move in reversed(moves[: (replay if replay is not None else len(moves))]):
        if move.side != rules.CHANCE:
            last = move_entry.squares_of(move.text)
            break

    drawn = view_board(position, side)
    board_ctx = render.board_context(
        game.variant,
        drawn,
        marks=check_marks(full, drawn),
        flip=(side == rules.BLACK) != flipped,
        legal=entry.legal if entry.moves and not confirm else None,
        selectable=entry.starts() if entry.moves and not confirm else (),
        selected=selected,
        targets=[] if selected or confirm else entry.placements,
        last_move=last,
        pending=move_entry.squares_of(confirm) if confirm else (),
        interactive=bool(entry.moves) and not confirm,
    )
    url = reverse("game", args=[game.pk])
    board_ctx["action"] = reverse("game_click", args=[game.pk])
    board_ctx["hidden"].append(("ply", game.visible_ply(side)))
    token = poll_token(game, side)
    ended = live and not game.is_active  # a replay step leaves out the rematch
    rematch_last = rematch_row(game.pk) if ended else None
    if ended:
        token = f"{token}-{rematch_token(rematch_last)}"

    return {
        "game": game,
        "side": side,
        "side_word": SIDE_WORDS.get(side, ""),
        "next_game": _next_game(user, game) if live and side is not None and not acting else None,
        "players": _players(game, side, _material(game, position, drawn)),
        "board": board_ctx,
        "legend": render.legend(game.variant),
        "move_list": render.move_list(listed, shown.number if shown else 0, seen_list),
        "replay": replay,
        "shown_number": shown.number if shown else 0,
        "shown_within": shown is not None and at != shown.step,  # inside a recruitment
        "last_number": len(listed),
        "steps": _steps(url, at, len(moves), [entry.step for entry in listed]),
        "fen": position.fen(),
        "status": _status(game, full, side, live),
        "acting": acting,
        "ply": game.visible_ply(side),
        "choices": [(m, choice_words(game.variant, m.text)) for m in choices],
        "barrier_moves": (
            barrier_choices(full, side, selected, entry.barrier_moves(selected)) if selected else []
        ),
        "confirm": confirm,
        "recruitment": _recruitment(game, full, side) if acting else None,
        "attraction": _attraction(full, side) if acting else "",
        "actions": _actions(game, side),
        "confirm_resign": confirm_resign and game.is_active and side is not None,
        "notice": notice,
        "rules_url": reverse("rules_page", args=[RULES_PAGES.get(game.variant, game.variant)]),
        "record_url": reverse("game_record", args=[game.pk]),
        "url": url,
        "rematch": _rematch(game, side, rematch_last) if ended else None,
        # the player's own conditional moves: a query only while a plan waits
        "plans": plans.box(user, game, replay, len(listed) + 1) if side and live else None,
        "polls": game.is_active or polls_for_rematch(side, rematch_last, game),
        "poll_url": f"{reverse('game_poll', args=[game.pk])}?v={token}",
        # a bot answers within seconds: look for its move sooner than for a person's
        "poll_seconds": 1 if bot_play.bot_to_act(game) else 5,
    }


def _next_game(user, game: Game) -> dict | None:
    """Once the player has moved (or the game is over), the game awaiting their move
    with the least time left, to go on with: correspondence players keep several."""
    found = queries.next_awaiting(user, game.pk)
    if found is None:
        return None
    name = Variant(found["variant"]).label
    return {"url": reverse("game", args=[found["pk"]]), "name": name, "number": found["pk"]}


def _rematch(game: Game, side: str | None, row: dict | None) -> dict | None:
    """The rematch part of an ended game's page (``row``: ``rematch_row``).  Everyone
    sees the link to a rematch game; only a player sees an offer, or may make one."""
    if row and row["game_id"]:
        return {"game_id": row["game_id"], "game_url": reverse("game", args=[row["game_id"]])}
    if side is None:
        return None
    opponent = game.player(rules.opponent(side))
    by_you = row is not None and row["challenger_id"] != opponent.pk
    # a rematch offer is a challenge to the other player: it waits until answered,
    # unless its maker closes their account (Challenge.expired)
    if row and row["status"] == Challenge.Status.OPEN and row["challenger__is_active"]:
        return {"opponent": opponent.username, "offered_by_you": by_you, "open": True}
    return {
        "opponent": opponent.username,
        "can_offer": opponent.is_active,
        "declined": by_you and row["status"] == Challenge.Status.DECLINED,
    }


def notes_box(game: Game, user, replay: int | None) -> dict | None:
    """``user``'s private notes box on the full page of ``game``: a player's only
    (None for anyone else).  The live fragment has but its placeholder, which keeps
    the page's box (hx-preserve): no poll reads a note or wipes what is being typed.
    ``replay``: the step shown, which a form sent without JavaScript comes back to."""
    if not notes.may_have_notes(user, game):
        return None
    note = notes.note_of(user, game)
    return {
        "text": note.text if note else "",
        "saved_at": note.updated_at if note else None,
        "ply": replay,
        "max_length": NOTE_MAX_LENGTH,
    }


def chat_box(game: Game, user, replay: int | None, polls: bool) -> dict | None:
    """The chat panel on ``user``'s full page of ``game``: for a player whose opponent
    is a person, with chat on in their settings (None for anyone else).  ``open``:
    whether they may write, that is the opponent has chat on too and neither has
    blocked the other (a blocker sees none of the blocked player's messages).  Like the notes box
    it is on the full page only, kept through every swap of the live part
    (hx-preserve).  It asks for new messages on its own while the page ``polls``
    (an old game's page costs no requests: a message shows there on the next visit)."""
    if not chat.may_chat(user, game) or not user.chat_enabled:
        return None
    lines = chat.messages_for(user, game)
    other = chat.opponent(user, game)
    blockers = blocks.blocker_ids(user, other)
    is_open = other.chat_enabled and not blockers
    return {
        "lines": lines,
        "last_id": lines[-1].pk if lines else 0,
        "opponent": other.username,
        "open": is_open,
        # who closed it by a block: "you" (the user blocked the opponent), "them", or ""
        "blocked": "you" if user.pk in blockers else "them" if blockers else "",
        "polls": polls and is_open,
        "ply": replay,
        "max_length": CHAT_MAX_LENGTH,
        "poll_seconds": chat.POLL_SECONDS,
    }


# Rococo's "from-to[xcaptured,...][:swap|:kamikaze]" and Shuuro's "from_to=X".
_ROCOCO_MOVE = re.compile(r"[a-j]\d+-(?P<to>[a-j]\d+)(?:x(?P<taken>[a-j\d,]+))?(?::(?P<kind>\w+))?")
_PROMOTION = re.compile(r"[a-l]\d+_[a-l]\d+=(?P<piece>[QRBN])")


def choice_words(variant: str, text: str) -> str:
    """What a move among several with the same destination does, in words."""
    found = _PROMOTION.fullmatch(text)
    if found:
        piece = render.PIECE_NAMES[variant][found["piece"]]
        return _("promote to a %(piece)s") % {"piece": piece}
    found = _ROCOCO_MOVE.fullmatch(text) if variant == "rococo" else None
    if found is None:
        return ""
    taken = (found["taken"] or "").replace(",", ", ")
    if found["kind"] == "swap":
        return _("swap places with the piece on %(square)s") % {"square": found["to"]}
    if found["kind"] == "kamikaze":
        return _("take %(squares)s; your piece is removed too") % {"squares": taken}
    if taken:
        return _("take %(squares)s") % {"squares": taken}
    return _("no capture")


_BARRIER_MOVE = re.compile(r"(?P<frm>[a-e][1-5][ne])>(?P<to>[a-e][1-5][ne])")


def _across(barrier: str, square: str) -> str:
    """The square on the other side of a Carge barrier from ``square``."""
    near, far = render.barrier_squares(barrier)
    return far if square == near else near


def barrier_choices(position, side: str, square: str, moves) -> list[tuple[object, str]]:
    """Each Carge barrier move of the pawn on ``square``, in words: which side of
    the square the barrier leaves and takes, named by the square beyond it, and
    what it captures (the mover's own pieces on a closed square included)."""
    before = position.board().pieces
    rows = []
    for move in moves:
        found = _BARRIER_MOVE.fullmatch(move.text)
        words = _("from the %(old)s side to the %(new)s side") % {
            "old": _across(found["frm"], square),
            "new": _across(found["to"], square),
        }
        after = position.play(position.parse_move(move.text, side)).board().pieces
        taken = sorted(sq for sq in before if sq not in after)
        mine = [sq for sq in taken if before[sq].isupper() == (side == rules.WHITE)]
        theirs = [sq for sq in taken if sq not in mine]
        if theirs:
            words = _("%(move)s; takes %(squares)s") % {"move": words, "squares": ", ".join(theirs)}
        if mine:
            lost = ", ".join(mine)
            words = _("%(move)s; you lose %(squares)s") % {"move": words, "squares": lost}
        rows.append((move, words))
    return rows


def check_marks(position, board: rules.Board) -> dict[str, str]:
    """The King of the side to move, when the engine says it is in check (Rococo, Shuuro)."""
    in_check = getattr(position, "in_check", None)
    if in_check is None or not in_check():
        return {}
    mover = position.to_act[0] if len(position.to_act) == 1 else None
    ending = position.outcome()
    if ending is not None and ending.winner:
        mover = rules.opponent(ending.winner)  # checkmated: the loser's King
    if mover not in rules.SIDES:
        return {}
    king = "K" if mover == rules.WHITE else "k"
    return {square: "check" for square, letter in board.pieces.items() if letter == king}


def _material(game: Game, position, board: rules.Board) -> dict[str, dict]:
    """Side -> the material it is ahead by in ``board`` (the viewer's), as the page
    draws it: ``pieces`` (piece class, count) and ``label`` in words.  Nothing while
    any army is secret (Shuuro's recruitment, or a game that ended in it): the two
    counts would tell of the other side's purchases, or mislead without them."""
    secret = game.white_hidden or game.black_hidden or position.is_secret
    if secret and not game.shows_all:
        return {}
    names = render.PIECE_NAMES[game.variant]
    shown = {}
    for side, pieces in material.ahead(game.variant, board).items():
        if not pieces:
            continue
        words = ", ".join(
            _("%(count)s × %(piece)s") % {"count": count, "piece": names[letter.upper()]}
            for letter, count in pieces
        )
        shown[side] = {
            "pieces": [(render.piece_class(letter), count) for letter, count in pieces],
            "label": _("Ahead by: %(pieces)s") % {"pieces": words},
        }
    return shown


def _players(game: Game, viewer_side: str | None, ahead: dict[str, dict]) -> list[dict]:
    """Both players, the viewer's own row last; ``ahead``: ``_material``."""
    to_act = game.to_act()
    ratings = shown_ratings(game)
    rows = []
    for side in (rules.WHITE, rules.BLACK):
        user = game.player(side)
        rating, change = ratings[side]
        rows.append(
            {
                "side": side,
                "side_word": SIDE_WORDS[side],
                "user": user,
                "rating": rating,
                "change": change,
                "to_act": side in to_act,
                "you": side == viewer_side,
                "winner": not game.is_active and game.winner == side,
                "material": ahead.get(side),
            }
        )
    if viewer_side == rules.WHITE:
        rows.reverse()  # the viewer's own name at the bottom, next to their pieces
    return rows


def _steps(url: str, at: int, count: int, stops: list[int]) -> dict:
    """Links of the replay buttons (None: disabled), from the position after move
    ``at`` of ``count``: back and next go from one listed entry's position (``stops``)
    to the next, so a Shuuro recruitment is one step, not one per purchase."""
    stops = [0, *stops]

    def link(n: int | None) -> str | None:
        if n is None or n == at:
            return None
        return url if n == count else f"{url}?ply={n}"

    back = max((n for n in stops if n < at), default=None)
    ahead = min((n for n in stops if n > at), default=None)
    return {"first": link(0), "back": link(back), "next": link(ahead), "last": link(count)}


def _status(game: Game, position, side: str | None, live: bool) -> dict:
    status = {"over": not game.is_active, "result": "", "turn": "", "phase": "", "deadline": None}
    if position.phase in PHASE_WORDS and (game.is_active or not live):
        status["phase"] = PHASE_WORDS[position.phase]
    if not game.is_active:
        status["result"] = result_words(game)
        return status
    to_act = game.to_act()
    if side in to_act:
        status["turn"] = _("Your turn.")
        if len(to_act) == 2:
            status["turn"] = _("Your turn: both players act at the same time, in secret.")
    elif len(to_act) == 2:
        status["turn"] = _("Both players to act.")
    elif to_act:
        status["turn"] = _("%(player)s (%(side)s) to move.") % {
            "player": game.player(to_act[0]),
            "side": SIDE_WORDS[to_act[0]],
        }
    if game.options.get("barrier_rule") == "on":
        white, black = position.barrier_moves_left
        status["barriers"] = _("Barrier moves left: White %(white)s, Black %(black)s.") % {
            "white": white,
            "black": black,
        }
    if game.deadline:
        status["deadline"] = game.deadline
        status["left"] = clock.time_left_text(game, timezone.now())
    if game.draw_offer:
        if game.draw_offer == side:
            status["draw"] = _("You offered a draw.")
        else:
            status["draw"] = _("%(side)s offers a draw.") % {"side": SIDE_WORDS[game.draw_offer]}
    elif game.draw_declined:
        status["draw"] = _declined_words(game.draw_declined, side)
    return status


def _declined_words(offerer: str, side: str | None) -> str:
    decliner = rules.opponent(offerer)
    if side == offerer:
        return _("%(side)s declined your draw offer.") % {"side": SIDE_WORDS[decliner]}
    if side == decliner:
        return _("You declined the draw offer.")
    return _("%(side)s declined a draw offer.") % {"side": SIDE_WORDS[decliner]}


def _recruitment(game: Game, position, side: str) -> dict | None:
    if position.phase != "recruitment":
        return None
    hand = view_board(position, side).hands.get(side, {})
    prices = position.prices
    legal = {position.move_text(move) for move in position.legal_moves(side)}
    spent = 0
    rows = []
    for letter in "QRBNP":
        shown = letter if side == rules.WHITE else letter.lower()
        count = hand.get(shown, 0)
        spent += count * prices[letter]
        rows.append(
            {
                "letter": letter,
                "name": render.PIECE_NAMES[game.variant][letter],
                "count": count,
                "price": prices[letter],
                "can_buy": f"+{letter}" in legal,  # within the budget and the caps
                "can_give_back": f"-{letter}" in legal,
                "image_url": render.legend(game.variant)[list("KQRBNP").index(letter)][2],
            }
        )
    budget = position.state.options.budget
    return {"rows": rows, "budget": budget, "spent": spent, "left": budget - spent}


def _attraction(position, side: str) -> str:
    pull = getattr(position, "attraction", None)
    found = pull() if pull else None
    if found is None:
        return ""
    return _(
        "Attraction: the enemy Hubris on %(hubris)s attracts your Ego on %(ego)s. "
        "You may only move the Ego to %(landing)s, or your Hubris onto a square between them."
    ) % {"hubris": found.hubris, "ego": found.ego, "landing": found.landing}


def _actions(game: Game, side: str | None) -> dict:
    if side is None or not game.is_active:
        return {}
    other = rules.opponent(side)
    abort = services.can_abort(game)
    return {
        # until both have moved, leaving costs nothing: the page offers Abort, not Resign
        "resign": not abort,
        "offer_draw": game.draw_offer == "",
        "answer_draw": game.draw_offer == other,
        "draw_offered": game.draw_offer == side,
        "abort": abort,
    }
