"""Shuuro's recruitment and deployment, by rule of thumb rather than search.

Recruitment: a few balanced armies, given per 800 points (the rulebook's example
first) and scaled to the game's budget, caps and piece limit; the bot buys toward
one of them, the most expensive pieces first, and confirms with ``done``.

Deployment: every legal placement is scored — the king on a central file, pawns
as a shelter in front of it, knights on plinths, rooks and queens on the back rank
and on files without own pawns, nothing where the enemy already attacks it, and a
check on the enemy king welcome (an ambush when the fight begins).
"""

from __future__ import annotations

import random

from games.rules.base import WHITE
from games.rules.shuuro import CAPS, PRICES, ShuuroPosition
from games.rules.shuuro_core import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, TYPE_OF

# Per 800 points: Q, R, B, N, P.
TEMPLATES = (
    {"Q": 2, "R": 3, "B": 4, "N": 4, "P": 5},  # the rulebook's example army
    {"Q": 3, "R": 2, "B": 3, "N": 3, "P": 9},
    {"Q": 1, "R": 4, "B": 4, "N": 4, "P": 9},
)
BUY_ORDER = "QRBNP"  # the most expensive first, so the big pieces always fit


def army(template: dict[str, int], budget: int, limits: bool, max_pieces: int) -> dict[str, int]:
    """The template scaled to ``budget``: buy the piece furthest below its scaled
    share while anything fits, then spend what is left on pawns and minor pieces."""
    scale = budget / 800
    want = {k: v * scale for k, v in template.items()}
    have = dict.fromkeys(template, 0)
    left, count = budget, 1  # the King is always there

    def fits(k: str) -> bool:
        return PRICES[k] <= left and count < max_pieces and (not limits or have[k] < CAPS[k])

    while True:
        open_ = [k for k in have if fits(k) and want[k] - have[k] >= 0.5]
        if not open_:
            open_ = [k for k in "PNB" if fits(k)]  # spend the rest
            if not open_:
                return have
        k = max(open_, key=lambda k: (want[k] - have[k], PRICES[k]))
        have[k] += 1
        left -= PRICES[k]
        count += 1


def recruit_move(position: ShuuroPosition, side: str, rng: random.Random) -> str:
    """The next recruitment move toward a balanced army: ``+X``, ``-X`` or ``done``."""
    state = position.state
    opts = state.options
    hand_codes = state.hands[0 if side == WHITE else 1]
    hand = {k: hand_codes[TYPE_OF[k]] for k in BUY_ORDER}
    targets = [army(t, opts.budget, opts.limits, position.max_pieces) for t in TEMPLATES]
    fitting = [t for t in targets if all(hand[k] <= t[k] for k in hand)]
    if not any(hand.values()):
        target = rng.choice(targets)
    elif fitting:  # keep going toward the army already begun
        target = min(fitting, key=lambda t: sum(t[k] - hand[k] for k in hand))
    else:  # a hand we did not build: the nearest army, giving back the excess
        target = min(targets, key=lambda t: sum(abs(t[k] - hand[k]) for k in hand))
    for k in BUY_ORDER:
        if hand[k] > target[k]:
            return f"-{k}"
    for k in BUY_ORDER:
        if hand[k] < target[k]:
            text = f"+{k}"
            try:
                position.parse_move(text, side)
            except ValueError:
                continue
            return text
    return "done"


def placement_score(position: ShuuroPosition, move: int) -> int:
    """How good placing this piece on this square looks (higher is better)."""
    state = position.state
    w, h = position.width, position.height
    side = state.side
    kind, sq = (move >> 8) & 15, move & 255
    file, rank = sq % w, sq // w
    rel = rank if side > 0 else h - 1 - rank
    board = state.board
    own_king = board.index(KING * side) if KING * side in board else -1
    king_file = own_king % w if own_king >= 0 else (w - 1) / 2
    centre = abs(2 * file - w + 1) / 2
    score = 0.0
    if kind == KING:
        score -= 10 * centre
    elif kind == PAWN:
        near = abs(file - king_file)
        score += 40 if near <= 1 else 10 - 3 * near
        score -= 10 * (rel - 1)
    elif kind == KNIGHT:
        score += 60 if state.plinth[sq] else 0
        score += 12 - 3 * centre
    elif kind in (ROOK, QUEEN):
        score += 30 - 5 * rel + (10 if kind == ROOK else 5)
        if abs(file - king_file) >= 2:
            score += 10
    elif kind == BISHOP:
        score += 12 - 2 * centre
    value = {PAWN: 1, KNIGHT: 3, BISHOP: 3, ROOK: 5, QUEEN: 9, KING: 20}[kind]
    if position.engine().attacked(sq, -side):
        score -= 25 * value
    enemy_king = board.index(-KING * side) if -KING * side in board else -1
    if enemy_king >= 0 and kind != KING:
        after = position.play(move)
        if after.engine().in_check(-side):
            score += 80
    return int(score)


def deploy_move(position: ShuuroPosition, rng: random.Random, jitter: int = 4) -> str:
    """The best-looking placement, ties and near-ties broken at random."""
    moves = position.legal_moves()
    scored = [(placement_score(position, m) + rng.randint(0, jitter), m) for m in moves]
    best = max(scored, key=lambda pair: pair[0])[1]
    return position.move_text(best)
