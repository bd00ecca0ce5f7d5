"""Property tests over random legal playouts of every engine.

Each example plays a seeded random game from the start (chance moves included)
and checks, at every ply: the FEN round-trips, every listed move's text parses
back to that move, applying it gives a readable position, mangled move text is
refused, and a finished game lists no moves.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import rules

MAX_PLIES = 250

START_OPTIONS = {
    "carolo": [{}],
    "carge": [{"barriers": "b2n,c3e,d1n", "barrier_rule": "on"}, {"barriers": "maze"}],
    "rococo": [{}],
    "shuuro": [{"budget": "300"}, {"budget": "200", "jungle": "3", "serious": "on"}],
    "shuuro-mini": [{}, {"castle": "on"}],
}


def mangled(text: str, rng: random.Random) -> str:
    """A near-miss of a move text: one character changed, dropped or added."""
    i = rng.randrange(len(text) + 1)
    kind = rng.randrange(3)
    if kind == 0 and i < len(text):
        return text[:i] + rng.choice("abcdefghijkl0123456789-x@_=:>QRBNKP") + text[i + 1 :]
    if kind == 1 and i < len(text):
        return text[:i] + text[i + 1 :]
    return text[:i] + rng.choice("a1x-@9") + text[i:]


def check_position(game, position, rng) -> None:
    fen = position.fen()
    assert game.from_fen(fen).fen() == fen
    moves = position.legal_moves()
    if position.outcome() is not None:
        assert moves == []
        return
    texts = {}
    for side in position.to_act:
        for move in position.legal_moves(side):
            text = position.move_text(move)
            assert texts.setdefault((side, text), move) == move, f"two moves written {text}"
            if side != rules.CHANCE:
                assert position.parse_move(text, side) == move
    for (side, text), _move in rng.sample(sorted(texts.items()), min(3, len(texts))):
        wrong = mangled(text, rng)
        if side != rules.CHANCE and (side, wrong) not in texts:
            with pytest.raises(rules.RulesError):
                position.parse_move(wrong, side)


@pytest.mark.parametrize("key", rules.GAME_KEYS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playouts_keep_every_invariant(key, seed):
    game = rules.get(key)
    rng = random.Random(seed)
    position = game.start(rng.choice(START_OPTIONS[key]))
    history = [position]
    for _ in range(MAX_PLIES):
        check_position(game, position, rng)
        moves = position.legal_moves()
        if not moves or game.history_outcome(history) is not None:
            break
        position = position.play(rng.choice(moves))
        history.append(position)
    check_position(game, position, rng)
