"""Shuuro and Mini-Shuuro (River Horse), as read by rulings.md.

Phases: ``recruitment`` (both players at once, in secret), ``plinths`` (dice
rolls as chance moves), ``deployment`` and ``fight`` (with the ``scouts``
option the plinths come before the recruitment).  The FEN is lishuuro's plus
en passant, with a trailing field for what lishuuro cannot say; see
``shuuro_fen`` and docs/rules/shuuro.md.

Move texts: ``+Q`` / ``-Q`` / ``done`` (recruitment, per side), ``roll 3,5``
(a plinth roll: column, row from the roller's side), ``first w`` /
``first b`` (the roll that decides who deploys or moves first), ``K@e1``
(placement), ``e2_e4`` and ``e11_e12=N`` (fight).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import ClassVar, Self

from .base import (
    BLACK,
    CHANCE,
    WHITE,
    Board,
    IllegalMove,
    InvalidFen,
    InvalidMove,
    InvalidOption,
    Message,
    Option,
    Outcome,
    Position,
    _,
    is_number,
)
from .shuuro_core import (
    EN_PASSANT,
    KING,
    LETTERS,
    PAWN,
    PLACE,
    TYPE_OF,
    Engine,
    Geometry,
    geometry,
    move_text,
)
from .shuuro_fen import Options, State, read_fen, write_board, write_fen

PIECE_NAMES = {"K": "King", "Q": "Queen", "R": "Rook", "B": "Bishop", "N": "Knight", "P": "Pawn"}
PRICES = {"K": 0, "Q": 110, "R": 70, "B": 40, "N": 40, "P": 10}
CAPS = {"K": 1, "Q": 3, "R": 6, "B": 9, "N": 9, "P": 18}

# Recruitment moves: RECRUIT | colour << 6 | action << 4 | type code.
RECRUIT = 1 << 27
BUY, GIVE_BACK, DONE = 0, 1, 2
# Plinth rolls: ROLL | column << 3 | row (1-6 each).
ROLL = 1 << 26
FIFTY_MOVES = 100  # plies without a capture or a pawn move

RECRUIT_RE = re.compile(r"([+-])([KQRBNP])|done")
ROLL_RE = re.compile(r"roll ([1-6]),([1-6])")
SIDE_OF = {WHITE: 1, BLACK: -1}
NAME_OF = {1: WHITE, -1: BLACK}

# Words for players, whole sentences per piece and per side (French needs the
# gender and the article of each).  The limit refusal names the piece one over
# its cap: a hand never holds more than the cap while the limits are on.
OVER_LIMIT = {
    "Q": _("a fourth queen is over the limit of 3"),
    "R": _("a seventh rook is over the limit of 6"),
    "B": _("a tenth bishop is over the limit of 9"),
    "N": _("a tenth knight is over the limit of 9"),
    "P": _("a nineteenth pawn is over the limit of 18"),
}
NONE_TO_GIVE_BACK = {
    "Q": _("there is no queen to give back"),
    "R": _("there is no rook to give back"),
    "B": _("there is no bishop to give back"),
    "N": _("there is no knight to give back"),
    "P": _("there is no pawn to give back"),
}
KING_REFUSAL = _("the King is always included: it is neither bought nor given back")
NOT_YOUR_TURN = {
    WHITE: _("it is not white's turn to act"),
    BLACK: _("it is not black's turn to act"),
}
CONFIRMED = {
    WHITE: _("white has confirmed the army; wait for the other player"),
    BLACK: _("black has confirmed the army; wait for the other player"),
}


def _too_dear(letter: str, left: int) -> Message:
    """Not enough points left for a ``letter``."""
    price = PRICES[letter]
    if letter == "Q":
        return _("not enough points: {left} left, a queen costs {price}", left=left, price=price)
    if letter == "R":
        return _("not enough points: {left} left, a rook costs {price}", left=left, price=price)
    if letter == "B":
        return _("not enough points: {left} left, a bishop costs {price}", left=left, price=price)
    if letter == "N":
        return _("not enough points: {left} left, a knight costs {price}", left=left, price=price)
    return _("not enough points: {left} left, a pawn costs {price}", left=left, price=price)


def _over_cap(letter: str, cap: int) -> Message:
    """An army holds more than ``cap`` pieces of type ``letter``."""
    if letter == "Q":
        return _("more than {cap} queens", cap=cap)
    if letter == "R":
        return _("more than {cap} rooks", cap=cap)
    if letter == "B":
        return _("more than {cap} bishops", cap=cap)
    if letter == "N":
        return _("more than {cap} knights", cap=cap)
    return _("more than {cap} pawns", cap=cap)


def _army_size(count: int) -> Message:
    return _("an army has at most {count} pieces", count=count)


def _count(hand: Sequence[int]) -> int:
    return sum(hand[1:])


def _cost(hand: Sequence[int]) -> int:
    return sum(PRICES[LETTERS[code]] * hand[code] for code in range(1, 7))


class ShuuroPosition(Position):
    """A Shuuro position in any phase (immutable)."""

    key = "shuuro"
    title = "Shuuro"
    width: ClassVar[int] = 12
    height: ClassVar[int] = 12
    default_budget: ClassVar[int] = 800
    max_pieces: ClassVar[int] = 32
    options = (
        Option("budget", "800", "points each player spends on the army"),
        Option(
            "limits",
            "on",
            "per-type caps (off: none; an army still has at most 32 pieces, Mini 10)",
            ("on", "off"),
        ),
        Option("scouts", "off", "scouts: plinths before recruitment", ("on", "off")),
        Option("jungle", "2", "plinths rolled per quarter (jungle: 3 or 4)", ("2", "3", "4")),
        Option("castle", "off", "king in castle: King anywhere on the first rank", ("on", "off")),
        Option("serious", "off", "let's be serious: no dice for who goes first", ("on", "off")),
    )
    piece_names: ClassVar[Mapping[str, str]] = PIECE_NAMES
    prices: ClassVar[Mapping[str, int]] = PRICES
    caps: ClassVar[Mapping[str, int]] = CAPS

    def __init__(self, state: State) -> None:
        self.state = state
        self._outcome: Outcome | None | bool = False  # False: not computed yet
        self._moves: list[int] | None = None

    # -- geometry ---------------------------------------------------------------------
    @classmethod
    def geo(cls) -> Geometry:
        """The move tables of this board size."""
        return geometry(cls.width, cls.height)

    @classmethod
    def quarters(cls) -> list[list[int]]:
        """Each quarter's squares by (column - 1) * 6 + (row - 1), in rolling order.

        White rolls its left then right quarter, then Black its own left and right,
        each from its own side (1,1 is the owner's nearest square on the left).
        """
        w = cls.width

        def white(fo: int) -> list[int]:
            return [(r - 1) * w + fo + c - 1 for c in range(1, 7) for r in range(1, 7)]

        def black(fo: int) -> list[int]:
            return [(w - r) * w + fo - (c - 1) for c in range(1, 7) for r in range(1, 7)]

        if w == 6:
            return [white(0)]
        return [white(0), white(6), black(11), black(5)]

    # -- construction and notation ------------------------------------------------
    @classmethod
    def start(cls, options: Mapping[str, str] | None = None) -> Self:
        values = {o.name: o.default for o in cls.options}
        for name, value in (options or {}).items():
            option = next((o for o in cls.options if o.name == name), None)
            if option is None:
                known = ", ".join(o.name for o in cls.options)
                raise InvalidOption(
                    _("unknown option {name!r} (one of {known})", name=name, known=known)
                )
            if option.choices and value not in option.choices:
                choices = ", ".join(option.choices)
                raise InvalidOption(
                    _("{name} must be one of {choices}", name=name, choices=choices)
                )
            values[name] = value
        budget = values["budget"]
        if not is_number(budget) or int(budget) > 100000:
            raise InvalidOption(
                _("budget must be a whole number up to 100000, not {budget!r}", budget=budget)
            )
        opts = Options(
            budget=int(budget),
            limits=values["limits"] == "on",
            scouts=values["scouts"] == "on",
            jungle=int(values["jungle"]),
            castle=values["castle"] == "on",
            serious=values["serious"] == "on",
        )
        size = cls.width * cls.height
        king_only = tuple(1 if code == KING else 0 for code in range(7))
        return cls(
            State(
                board=(0,) * size,
                plinth=(False,) * size,
                hands=(king_only, king_only),
                side=1,
                ply=0,
                ep=-1,
                options=opts,
                pre_phase="plinths" if opts.scouts else "recruitment",
            )
        )

    @classmethod
    def from_fen(cls, fen: str) -> Self:
        state = read_fen(fen, cls.width, cls.height, cls.default_budget)
        problem = cls._problem(state)
        if problem:
            raise InvalidFen(problem)
        position = cls(state)
        if position.phase == "fight" and not state.roll:
            engine = position.engine()
            if engine.in_check(-state.side) and not engine.ambush():
                # No move leads here: the King could be taken.  Only the fight's first
                # position may have it (the ambush, which ends the game).
                if state.side > 0:
                    raise InvalidFen(_("black is in check with the other side to move"))
                raise InvalidFen(_("white is in check with the other side to move"))
        return position

    @classmethod
    def _problem(cls, s: State) -> Message | None:
        """Why a parsed FEN is not a position of this game (None: it is)."""
        size, w = cls.width * cls.height, cls.width
        if s.pre_phase:
            if any(s.board) or s.ply or s.ep >= 0 or s.side < 0:
                return _("before deployment the board holds only plinths, side w, ply 0, no e.p.")
            if s.rolls > cls._total_rolls(s.options):
                return _("at most {count} plinth rolls", count=cls._total_rolls(s.options))
            recruited = s.pre_phase == "plinths" and not s.options.scouts
            for colour in (0, 1):
                hand = s.hands[colour]
                if s.pre_phase == "plinths" and s.options.scouts and _count(hand) != 1:
                    return _("with scouts, the plinths are rolled before anything is bought")
                problem = cls._army_problem(hand, s.options)
                if problem and colour == 0:
                    return _("white's army: {problem}", problem=problem)
                if problem:
                    return _("black's army: {problem}", problem=problem)
            rolled = s.rolls if s.pre_phase == "plinths" else cls._total_rolls(s.options)
            if s.pre_phase == "recruitment" and not s.options.scouts:
                rolled = 0
            problem = cls._plinth_problem(s.plinth, rolled, s.options.jungle)
            if problem:
                return problem
            if recruited and s.done:
                return _("done belongs to the recruitment phase")
            if len(s.done) == 2:
                return _("both players have confirmed: recruitment is over")
            return None
        deploying = any(s.hands[0]) or any(s.hands[1])
        for side in (1, -1):
            colour = 0 if side > 0 else 1
            kings = s.board.count(KING * side) + s.hands[colour][KING]
            if kings != 1 and side > 0:
                return _("white needs exactly one King, not {kings}", kings=kings)
            if kings != 1:
                return _("black needs exactly one King, not {kings}", kings=kings)
        for sq in (*range(w), *range(size - w, size)):  # the first and last ranks
            if abs(s.board[sq]) == PAWN:
                square = cls.geo().names[sq]
                return _("a pawn on {square}, on a first or last rank", square=square)
        if s.roll:
            placed = any(s.board)
            if placed and deploying:
                return _("roll (who goes first) comes before the first or after the last placement")
        elif deploying and not any(s.hands[0 if s.side > 0 else 1]):
            if s.side > 0:
                return _("white is to place a piece but has none in hand")
            return _("black is to place a piece but has none in hand")
        if s.ep >= 0:
            mover = -s.side
            rank = s.ep // w
            pawn, origin = s.ep + mover * w, s.ep - mover * w
            third = 2 if mover > 0 else cls.height - 3
            if (
                deploying
                or s.roll
                or rank != third
                or s.board[s.ep]
                or s.plinth[s.ep]
                or s.board[origin]
                or s.board[pawn] != mover * PAWN
            ):
                square = cls.geo().names[s.ep]
                return _("en passant square {square} does not follow a double step", square=square)
        return None

    @classmethod
    def _total_rolls(cls, options: Options) -> int:
        return len(cls.quarters()) * options.jungle

    @classmethod
    def _plinth_problem(cls, plinth: tuple[bool, ...], rolled: int, jungle: int) -> Message | None:
        quarters = cls.quarters()
        covered = set()
        for index, squares in enumerate(quarters):
            covered.update(squares)
            rolls = max(0, min(jungle, rolled - index * jungle))
            found = sum(1 for sq in squares if plinth[sq])
            if found > rolls or (rolls and not found):
                return _(
                    "the plinths of quarter {quarter} do not match its rolls"
                    " ({found} found, {rolls} rolled)",
                    quarter=index + 1,
                    found=found,
                    rolls=rolls,
                )
        if any(plinth[sq] for sq in range(len(plinth)) if sq not in covered):
            return _("a plinth outside the quarters")
        return None

    @classmethod
    def _army_problem(cls, hand: Sequence[int], options: Options) -> Message | None:
        if hand[KING] != 1:
            return _("exactly one King")
        if _count(hand) > cls.max_pieces:
            return _army_size(cls.max_pieces)
        if options.limits:
            for code in range(1, 6):
                letter = LETTERS[code]
                if hand[code] > CAPS[letter]:
                    return _over_cap(letter, CAPS[letter])
        if _cost(hand) > options.budget:
            return _(
                "costs {cost}, over the budget of {budget}",
                cost=_cost(hand),
                budget=options.budget,
            )
        return None

    def fen(self) -> str:
        return write_fen(self.state, self.width, self.height)

    def view_fen(self, side: str | None) -> str:
        """During recruitment, the other side's purchases are shown as its King alone."""
        return write_fen(self._visible_state(side), self.width, self.height)

    def _visible_state(self, side: str | None) -> State:
        s = self.state
        if s.pre_phase != "recruitment":
            return s
        king_only = tuple(1 if code == KING else 0 for code in range(7))
        hands = tuple(
            s.hands[colour] if side == (WHITE, BLACK)[colour] else king_only for colour in (0, 1)
        )
        return replace(s, hands=hands)

    # -- who acts -----------------------------------------------------------------------
    @property
    def phase(self) -> str:
        s = self.state
        if s.pre_phase:
            return s.pre_phase
        return "deployment" if any(s.hands[0]) or any(s.hands[1]) else "fight"

    @property
    def is_secret(self) -> bool:
        return self.state.pre_phase == "recruitment"

    @property
    def to_act(self) -> tuple[str, ...]:
        s = self.state
        if s.pre_phase == "recruitment":
            return tuple(side for side in (WHITE, BLACK) if SIDE_OF[side] not in s.done)
        if s.pre_phase == "plinths" or s.roll:
            return (CHANCE,)
        if self.outcome() is not None:
            return ()
        return (NAME_OF[s.side],)

    def engine(self) -> Engine:
        """A new Engine on this deployment or fight position, free to change."""
        s = self.state
        return Engine(
            self.geo(),
            list(s.board),
            s.plinth,
            [list(s.hands[0]), list(s.hands[1])],
            s.side,
            s.ply,
            s.ep,
            s.roll,
            s.options.castle,
            s.options.serious,
        )

    def _engine_moves(self) -> list[int]:
        if self._moves is None:
            self._moves = self.engine().moves()
        return self._moves

    def legal_moves(self, side: str | None = None) -> list[int]:
        s = self.state
        if side is not None and side not in self.to_act:
            return []
        if s.pre_phase == "recruitment":
            return [m for sd in self.to_act if side in (None, sd) for m in self._recruits(sd)]
        if s.pre_phase == "plinths":
            return [ROLL | c << 3 | r for c in range(1, 7) for r in range(1, 7)]
        return list(self._engine_moves())

    def _recruits(self, side: str) -> list[int]:
        colour = 0 if side == WHITE else 1
        moves = []
        for code in range(1, 6):
            for action in (BUY, GIVE_BACK):
                if self._refusal(colour, action, code) is None:
                    moves.append(RECRUIT | colour << 6 | action << 4 | code)
        moves.append(RECRUIT | colour << 6 | DONE << 4)
        return moves

    def _refusal(self, colour: int, action: int, code: int) -> Message | None:
        """Why this recruitment move is not allowed (None: it is).

        Also run for every move the legal-move listing offers: a Message is made
        only for a refusal, most of them ready-made.
        """
        s = self.state
        opts = s.options
        hand = s.hands[colour]
        letter = LETTERS[code]
        if action == DONE:
            return None
        if code == KING:
            return KING_REFUSAL
        if action == GIVE_BACK:
            return None if hand[code] else NONE_TO_GIVE_BACK[letter]
        if opts.limits and hand[code] >= CAPS[letter]:
            return OVER_LIMIT[letter]
        if _count(hand) >= self.max_pieces:
            return _army_size(self.max_pieces)
        left = opts.budget - _cost(hand)
        if PRICES[letter] > left:
            return _too_dear(letter, left)
        return None

    # -- playing ------------------------------------------------------------------------
    def play(self, move: int) -> Self:
        s = self.state
        if move & RECRUIT:
            return self._play_recruit(move)
        if move & ROLL:
            return self._play_roll(move)
        engine = self.engine()
        engine.make(move)
        hands = (tuple(engine.hands[0]), tuple(engine.hands[1]))
        return type(self)(
            replace(
                s,
                board=tuple(engine.board),
                hands=hands,
                side=engine.side,
                ply=engine.ply,
                ep=engine.ep,
                roll=engine.roll,
            )
        )

    def _play_recruit(self, move: int) -> Self:
        s = self.state
        colour, action, code = (move >> 6) & 1, (move >> 4) & 3, move & 15
        if action == DONE:
            done = s.done | {1 - 2 * colour}
            if len(done) == 2:
                return self._after_setup_phase(replace(s, done=frozenset()))
            return type(self)(replace(s, done=done))
        hand = list(s.hands[colour])
        hand[code] += 1 if action == BUY else -1
        hands = (tuple(hand), s.hands[1]) if colour == 0 else (s.hands[0], tuple(hand))
        return type(self)(replace(s, hands=hands))

    def _play_roll(self, move: int) -> Self:
        s = self.state
        column, row = (move >> 3) & 7, move & 7
        quarter = self.quarters()[s.rolls // s.options.jungle]
        square = quarter[(column - 1) * 6 + row - 1]
        plinth = list(s.plinth)
        plinth[square] = True  # a roll that hits a plinth already there adds nothing
        state = replace(s, plinth=tuple(plinth), rolls=s.rolls + 1)
        if state.rolls == self._total_rolls(s.options):
            return self._after_setup_phase(replace(state, rolls=0))
        return type(self)(state)

    def _after_setup_phase(self, s: State) -> Self:
        """Recruitment or plinths is over: the other one, or deployment."""
        if s.pre_phase == "recruitment" and not s.options.scouts:
            return type(self)(replace(s, pre_phase="plinths"))
        if s.pre_phase == "plinths" and s.options.scouts:
            return type(self)(replace(s, pre_phase="recruitment"))
        white, black = _count(s.hands[0]), _count(s.hands[1])
        # Lower roll deploys first; serious: the larger army first, a roll on a tie.
        roll = not s.options.serious or white == black
        side = 1 if roll or white > black else -1
        return type(self)(replace(s, pre_phase=None, side=side, ply=1, roll=roll))

    def move_text(self, move: int) -> str:
        if move & RECRUIT:
            action, code = (move >> 4) & 3, move & 15
            return "done" if action == DONE else f"{'+-'[action]}{LETTERS[code]}"
        if move & ROLL:
            return f"roll {(move >> 3) & 7},{move & 7}"
        return move_text(self.geo(), self.state.side, move)

    def parse_move(self, text: str, side: str | None = None) -> int:
        text = text.strip()
        if not text or len(text) > 64:
            raise InvalidMove(_("not a move: {text!r}", text=text[:64]))
        if self.state.pre_phase == "recruitment":
            return self._parse_recruit(text, side)
        if side is not None and side not in self.to_act:
            if not self.to_act:
                raise IllegalMove(_("the game is over"))
            if side in NOT_YOUR_TURN:
                raise IllegalMove(NOT_YOUR_TURN[side])
            raise IllegalMove(_("it is not {side}'s turn to act", side=side))
        return super().parse_move(text, side)

    def _parse_recruit(self, text: str, side: str | None) -> int:
        match = RECRUIT_RE.fullmatch(text)
        if not match:
            raise InvalidMove(
                _("not a recruitment move: {text!r} (+Q buys, -Q gives back, done)", text=text)
            )
        if side not in (WHITE, BLACK):
            raise InvalidMove(_("a recruitment move needs the side that makes it"))
        if side not in self.to_act:
            raise IllegalMove(CONFIRMED[side])
        colour = 0 if side == WHITE else 1
        if text == "done":
            return RECRUIT | colour << 6 | DONE << 4
        action = BUY if match.group(1) == "+" else GIVE_BACK
        code = TYPE_OF[match.group(2)]
        refusal = self._refusal(colour, action, code)
        if refusal:
            raise IllegalMove(refusal)
        return RECRUIT | colour << 6 | action << 4 | code

    # -- endings ------------------------------------------------------------------------
    def in_check(self) -> bool:
        """Is the King of the side to move attacked (in the fight only)?"""
        s = self.state
        if self.phase != "fight" or s.roll:
            return False
        return self.engine().in_check(s.side)

    def outcome(self) -> Outcome | None:
        if self._outcome is False:
            self._outcome = self._find_outcome()
        return self._outcome  # type: ignore[return-value]

    def _find_outcome(self) -> Outcome | None:
        s = self.state
        if self.phase != "fight" or s.roll:
            return None
        engine = self.engine()
        mover, other = NAME_OF[s.side], NAME_OF[-s.side]
        if engine.ambush():
            return Outcome(
                mover, "ambush", f"{mover.title()} wins: {other}'s King is in check "
                "as the fight begins (ambush)",
            )  # fmt: skip
        if engine.insufficient_material():
            # A dead position is drawn, unless the capture that left it also mated
            # (plinths can wall a King in): the checkmate ends the game first.
            if not engine.in_check(s.side) or engine.fight_moves():
                return Outcome(None, "insufficient-material", "Draw by insufficient material")
        elif self._engine_moves():
            return None
        if engine.in_check(s.side):
            return Outcome(other, "checkmate", f"{other.title()} wins by checkmate")
        return Outcome(None, "stalemate", "Draw by stalemate")

    def can_checkmate(self, side: str) -> bool:
        """A lone King never gives check: False when ``side``'s army (on the board and
        in hand) is its King alone.  Any other piece might mate with the opponent's
        help, which is all FIDE's rule asks."""
        colour, sign = (0, 1) if side == WHITE else (1, -1)
        hand = self.state.hands[colour]
        if sum(hand) > hand[KING]:
            return True
        return any(piece * sign > 0 and piece != KING * sign for piece in self.state.board)

    def repetition_key(self) -> str | None:
        s = self.state
        if self.phase != "fight" or s.roll:
            return None
        board = write_board(s.board, s.plinth, self.width, self.height)
        ep = ""
        if any(m >> 20 == EN_PASSANT and not m & PLACE for m in self._engine_moves()):
            ep = self.geo().names[s.ep]
        return f"{board} {'w' if s.side > 0 else 'b'} {ep}"

    HISTORY_KEYS_ONLY = False  # the fifty-move rule reads the boards

    @classmethod
    def history_outcome(cls, history: Sequence[Self]) -> Outcome | None:
        """Position endings, threefold repetition, then the fifty-move rule."""
        found = super().history_outcome(history)
        if found is not None:
            return found
        quiet = 0
        for before, after in zip(reversed(history[:-1]), reversed(history[1:]), strict=True):
            if before.phase != "fight" or before.state.roll or after.phase != "fight":
                break
            b, a = before.state.board, after.state.board
            captured = sum(1 for p in a if p) < sum(1 for p in b if p)
            pawns_moved = [abs(p) == PAWN for p in a] != [abs(p) == PAWN for p in b]
            if captured or pawns_moved:
                break
            quiet += 1
        if quiet >= FIFTY_MOVES:
            return Outcome(None, "fifty-moves", "Draw by the fifty-move rule")
        return None

    # -- drawing and counting -------------------------------------------------------
    def board(self) -> Board:
        """What a spectator may see (during recruitment: no purchases)."""
        return self.board_for(None)

    def board_for(self, side: str | None) -> Board:
        """The board as ``side`` may see it (None: a spectator)."""
        s = self._visible_state(side)
        names = self.geo().names
        pieces = {}
        for sq, p in enumerate(s.board):
            if p:
                pieces[names[sq]] = LETTERS[p] if p > 0 else LETTERS[-p].lower()
        hands = {}
        for colour, name in ((0, WHITE), (1, BLACK)):
            hand = {}
            for code in range(6, 0, -1):
                if s.hands[colour][code]:
                    letter = LETTERS[code] if colour == 0 else LETTERS[code].lower()
                    hand[letter] = s.hands[colour][code]
            hands[name] = hand
        plinths = frozenset(names[sq] for sq, on in enumerate(s.plinth) if on)
        return Board(self.width, self.height, pieces=pieces, plinths=plinths, hands=hands)

    def perft(self, depth: int) -> int:
        if self.state.pre_phase:
            return super().perft(depth)
        return self.engine().perft(depth)

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_fen({self.fen()!r})"


class MiniShuuroPosition(ShuuroPosition):
    """Mini-Shuuro: one quarter (6x6), 200 points, at most 10 pieces."""

    key = "shuuro-mini"
    title = "Mini-Shuuro"
    width = 6
    height = 6
    default_budget = 200
    max_pieces = 10
    options = (
        Option("budget", "200", "points each player spends on the army"),
        *ShuuroPosition.options[1:],
    )
