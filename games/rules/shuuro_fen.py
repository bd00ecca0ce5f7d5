"""Shuuro's FEN: lishuuro's, plus en passant, plus a documented trailing field.

Deployment and fight (exactly lishuuro's plus en passant)::

    <ranks top to bottom> <w|b> <hand or -> <ply> [<en passant square or ->]

Ranks use ``K Q R B N P`` (White upper case), ``_.`` for an empty plinth,
``_N`` / ``_n`` for a knight on a plinth and numbers for runs of empty squares.
The hand is counts before letters with count 1 omitted (``K2Q3Pk2q``).

A sixth field, written only when needed, carries what lishuuro's FEN cannot:
comma-separated tokens.  In deployment and fight: ``roll`` (a die roll decides
who goes first: before the first placement who deploys first, after the last
one who moves first), ``castle=on`` (king in castle) and ``serious=on``.  Before
deployment the field starts with the phase, ``recruitment`` or ``plinths``,
followed by ``rolls=<n>`` (plinth rolls made so far, plinths phase only),
``done=<w|b>`` (who has confirmed, recruitment only) and every option as
``name=value``; the ply is then 0 and the hand holds the purchases so far.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .base import InvalidFen, _, is_number
from .shuuro_core import KING, KNIGHT, LETTERS, PAWN, TYPE_OF, geometry

SIDE_LETTERS = {"w": 1, "b": -1}
PRE_PHASES = ("recruitment", "plinths")
HAND_RE = re.compile(r"([0-9]*)([KQRBNPkqrbnp])")
RANK_RE = re.compile(r"[0-9]+|_[.Nn]|[KQRBNPkqrbnp]|.")
RUN_RE = re.compile("1+")  # a run of empty squares, each written "1" by write_board
# A square's FEN text by piece (0: empty), off and on a plinth, and back.
PIECE_TEXT = (
    {0: "1"}
    | {c: t for c, t in enumerate(LETTERS) if c}
    | {-c: t.lower() for c, t in enumerate(LETTERS) if c}
)
PLINTH_TEXT = {p: f"_{'.' if p == 0 else t}" for p, t in PIECE_TEXT.items()}
PIECE_OF = {t: p for p, t in PIECE_TEXT.items() if p}
PLINTH_OF = {"_.": 0, "_N": KNIGHT, "_n": -KNIGHT}


@dataclass(frozen=True)
class Options:
    budget: int
    limits: bool = True
    scouts: bool = False
    jungle: int = 2
    castle: bool = False
    serious: bool = False

    def tokens(self) -> list[str]:
        def onoff(value: bool) -> str:
            return "on" if value else "off"

        return [
            f"budget={self.budget}",
            f"limits={onoff(self.limits)}",
            f"scouts={onoff(self.scouts)}",
            f"jungle={self.jungle}",
            f"castle={onoff(self.castle)}",
            f"serious={onoff(self.serious)}",
        ]


@dataclass(frozen=True)
class State:
    """Everything a Shuuro FEN holds."""

    board: tuple[int, ...]
    plinth: tuple[bool, ...]
    hands: tuple[tuple[int, ...], tuple[int, ...]]  # counts by type code, White first
    side: int
    ply: int
    ep: int  # -1: none
    options: Options
    roll: bool = False
    pre_phase: str | None = None  # "recruitment" / "plinths" before deployment
    rolls: int = 0
    done: frozenset[int] = field(default_factory=frozenset)


def parse_onoff(name: str, value: str) -> bool:
    if value not in ("on", "off"):
        raise InvalidFen(_("{name} must be on or off, not {value!r}", name=name, value=value))
    return value == "on"


def read_board(text: str, width: int, height: int) -> tuple[list[int], list[bool]]:
    ranks = text.split("/")
    if len(ranks) != height:
        raise InvalidFen(
            _("the board needs {height} ranks, not {count}", height=height, count=len(ranks))
        )
    board = [0] * (width * height)
    plinth = [False] * (width * height)
    for row, rank_text in enumerate(ranks):
        rank = height - 1 - row
        file = 0
        for token in RANK_RE.findall(rank_text):
            if token[0] in "0123456789":  # the regex's run of ASCII digits
                if token[0] == "0":
                    raise InvalidFen(
                        _(
                            "bad empty-square count {token!r} in rank {rank}",
                            token=token,
                            rank=rank + 1,
                        )
                    )
                file += int(token)
                continue
            if file >= width:
                # Nothing may follow a full rank: a piece here would be silently lost.
                raise InvalidFen(
                    _("rank {rank} has more than {width} squares", rank=rank + 1, width=width)
                )
            sq = rank * width + file
            if token in PIECE_OF:
                board[sq] = PIECE_OF[token]
            elif token in PLINTH_OF:
                plinth[sq] = True
                board[sq] = PLINTH_OF[token]
            elif token == "_":
                raise InvalidFen(
                    _("only a knight may stand on a plinth (rank {rank})", rank=rank + 1)
                )
            else:
                raise InvalidFen(
                    _("unknown piece {token!r} in rank {rank}", token=token, rank=rank + 1)
                )
            file += 1
        if file != width:
            raise InvalidFen(
                _(
                    "rank {rank} should have {width} squares, not {count}",
                    rank=rank + 1,
                    count=file,
                    width=width,
                )
            )
    return board, plinth


def write_board(board: tuple[int, ...], plinth: tuple[bool, ...], width: int, height: int) -> str:
    cells = [PLINTH_TEXT[p] if on else PIECE_TEXT[p] for p, on in zip(board, plinth, strict=True)]
    ranks = "/".join(
        "".join(cells[lo : lo + width]) for lo in range((height - 1) * width, -1, -width)
    )
    return RUN_RE.sub(lambda run: str(len(run[0])), ranks)


def read_hand(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    hands = [[0] * 7, [0] * 7]
    if text == "-":
        return tuple(hands[0]), tuple(hands[1])
    pos = 0
    for match in HAND_RE.finditer(text):
        if match.start() != pos:
            break
        pos = match.end()
        count, letter = match.groups()
        n = int(count) if count else 1
        colour = 0 if letter.isupper() else 1
        code = TYPE_OF[letter.upper()]
        if count.startswith("0") or hands[colour][code]:  # 0, or a leading zero
            raise InvalidFen(
                _(
                    "bad hand {text!r}: {letter} given twice or with a bad count",
                    text=text,
                    letter=letter,
                )
            )
        hands[colour][code] = n
    if pos != len(text):
        raise InvalidFen(_("bad hand {text!r}", text=text))
    return tuple(hands[0]), tuple(hands[1])


def write_hand(hands: tuple[tuple[int, ...], tuple[int, ...]]) -> str:
    out = []
    for colour in (0, 1):
        for code in (KING, 5, 4, 3, 2, PAWN):
            n = hands[colour][code]
            letter = LETTERS[code] if colour == 0 else LETTERS[code].lower()
            if n:
                out.append(letter if n == 1 else f"{n}{letter}")
    return "".join(out) or "-"


def read_fen(text: str, width: int, height: int, default_budget: int) -> State:
    """Parse the FEN's fields; the caller checks the position's consistency."""
    if not isinstance(text, str) or len(text) > 1000:
        raise InvalidFen(_("not a Shuuro FEN"))
    fields = text.split()
    if not 4 <= len(fields) <= 6:
        raise InvalidFen(
            _(
                "a Shuuro FEN has 4 to 6 fields, not {count}: {text!r}",
                count=len(fields),
                text=text[:80],
            )
        )
    board, plinth = read_board(fields[0], width, height)
    if fields[1] not in SIDE_LETTERS:
        raise InvalidFen(_("side to move must be w or b, not {side!r}", side=fields[1]))
    hands = read_hand(fields[2])
    if not is_number(fields[3]):
        raise InvalidFen(_("ply must be a whole number, not {ply!r}", ply=fields[3]))
    ply = int(fields[3])
    ep = -1
    if len(fields) >= 5 and fields[4] != "-":
        ep = geometry(width, height).index.get(fields[4], -1)
        if ep < 0:
            raise InvalidFen(_("bad en passant square {square!r}", square=fields[4]))
    extra = fields[5].split(",") if len(fields) == 6 else []

    pre_phase = None
    if extra and extra[0] in PRE_PHASES:
        pre_phase = extra.pop(0)
    values: dict[str, str] = {}
    roll = False
    for token in extra:
        name, sep, value = token.partition("=")
        if token == "roll" and pre_phase is None:
            roll = True
            continue
        if not sep or name in values:
            raise InvalidFen(_("bad token {token!r} in the FEN's sixth field", token=token))
        values[name] = value
    allowed = {"castle", "serious"}
    if pre_phase:
        allowed |= {"budget", "limits", "scouts", "jungle"}
        allowed |= {"rolls"} if pre_phase == "plinths" else {"done"}
    unknown = set(values) - allowed
    if unknown:
        raise InvalidFen(
            _("unknown token {token!r} in the FEN's sixth field", token=sorted(unknown)[0])
        )
    texts = [
        str(values.get("budget", default_budget)),
        values.get("rolls", "0"),
        values.get("jungle", "2"),
    ]
    if not all(map(is_number, texts)):
        raise InvalidFen(_("budget, jungle and rolls must be whole numbers"))
    budget, rolls, jungle = map(int, texts)
    if jungle not in (2, 3, 4):
        raise InvalidFen(_("jungle must be 2, 3 or 4, not {jungle}", jungle=jungle))
    done_text = values.get("done", "")
    if done_text not in ("", "w", "b", "wb"):
        raise InvalidFen(_("done must be w, b or wb, not {done!r}", done=done_text))
    options = Options(
        budget=budget,
        limits=parse_onoff("limits", values.get("limits", "on")),
        scouts=parse_onoff("scouts", values.get("scouts", "off")),
        jungle=jungle,
        castle=parse_onoff("castle", values.get("castle", "off")),
        serious=parse_onoff("serious", values.get("serious", "off")),
    )
    return State(
        board=tuple(board),
        plinth=tuple(plinth),
        hands=hands,
        side=SIDE_LETTERS[fields[1]],
        ply=ply,
        ep=ep,
        options=options,
        roll=roll,
        pre_phase=pre_phase,
        rolls=rolls,
        done=frozenset(SIDE_LETTERS[c] for c in done_text),
    )


def write_fen(state: State, width: int, height: int) -> str:
    board = write_board(state.board, state.plinth, width, height)
    side = "w" if state.side > 0 else "b"
    hand = write_hand(state.hands)
    if state.pre_phase:
        tokens = [state.pre_phase]
        if state.pre_phase == "plinths":
            tokens.append(f"rolls={state.rolls}")
        elif state.done:
            tokens.append("done=" + "".join(c for c, s in SIDE_LETTERS.items() if s in state.done))
        tokens += state.options.tokens()
        return f"{board} {side} {hand} 0 - {','.join(tokens)}"
    ep = "-" if state.ep < 0 else f"{'abcdefghijkl'[state.ep % width]}{state.ep // width + 1}"
    fen = f"{board} {side} {hand} {state.ply} {ep}"
    tokens = ["roll"] if state.roll else []
    if state.options.castle:
        tokens.append("castle=on")
    if state.options.serious:
        tokens.append("serious=on")
    return f"{fen} {','.join(tokens)}" if tokens else fen
