"""The bots: legal moves in every phase, wins in one taken, captures seen, time kept."""

from __future__ import annotations

import random

import pytest

from games import bots, rules
from games.bots.shuuro_setup import TEMPLATES, army
from games.rules.base import BLACK, CHANCE, WHITE
from games.rules.shuuro import CAPS, PRICES

FAST = 0.15  # seconds per search: the tests check choices, not strength


def _legal_texts(position, side):
    return {position.move_text(m) for m in position.legal_moves(side)}


def _advance(position, plies, rng):
    """Random play for ``plies`` moves (chance and both sides alike)."""
    for _ in range(plies):
        if position.outcome() is not None or not position.to_act:
            break
        position = position.play(rng.choice(position.legal_moves()))
    return position


def _wins_for(position, text, side):
    after = position.play(position.parse_move(text, side))
    found = after.outcome()
    return found is not None and found.winner == side


@pytest.mark.parametrize("game", ["carolo", "carge", "rococo"])
@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_it_returns_a_legal_move_at_the_start_and_later(game, level):
    # The playout has a source of its own: the bot's draws depend on how deep it got
    # in its time, so sharing one made the playout differ from run to run (and
    # sometimes end the game before the second look).
    walk, rng = random.Random(level), random.Random(-level)
    position = rules.get(game).start() if game != "carge" else rules.get(game).start(rng=walk)
    for plies in (0, 12):
        position = _advance(position, plies, walk)
        assert position.to_act, position.fen()
        side = position.to_act[0]
        text = bots.choose_move(position, side, level, rng=rng, time_limit=FAST)
        assert text in _legal_texts(position, side)


def test_carge_bot_crosses_from_placement_to_moves():
    last_placement = rules.get("carge").from_fen("PpPpP/pPpPp/PpPpP/5/5 b - 0,1 0,0")
    assert last_placement.phase == "placement"
    rng = random.Random(2)
    text = bots.choose_move(last_placement, BLACK, 4, rng=rng, time_limit=FAST)
    assert text in _legal_texts(last_placement, BLACK)
    first_move = last_placement.play(last_placement.parse_move(text, BLACK))
    assert first_move.phase == "move"
    text = bots.choose_move(first_move, WHITE, 4, rng=rng, time_limit=FAST)
    assert text in _legal_texts(first_move, WHITE)


@pytest.mark.parametrize(
    ("game", "fen"),
    [
        ("carolo", "4e3/C4B2/8/8/c7/8/8/4E3 w - 1"),  # the Carolo ends next to the Ego
        ("carge", "p3p/5/5/5/P1P2 w - 0,0 0,0"),  # a1xa5 leaves Black one pawn
        ("rococo", "91/1M8/1p8/5k4/91/1K1P6/8B1/3P6/91/91 w 84 -"),  # b9-e6 only
        ("shuuro", "k11/12/1Q10/12/12/12/12/12/12/12/12/1R9K w - 50"),
        ("shuuro-mini", "k5/6/1Q4/6/6/1R3K w - 30"),
    ],
)
@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_it_takes_a_win_in_one(game, fen, level):
    position = rules.get(game).from_fen(fen)
    text = bots.choose_move(position, WHITE, level, rng=random.Random(level), time_limit=FAST)
    assert _wins_for(position, text, WHITE), text


@pytest.mark.parametrize(
    ("game", "fen", "capture"),
    [
        ("shuuro", "k11/12/12/12/3r8/12/12/12/3Q8/12/12/11K w - 50", "d4_d8"),
        ("carge", "1pp2/p4/5/5/P2S1 w - 0,0 0,0", "a1xa4"),
    ],
)
@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_it_does_not_miss_an_obvious_capture(game, fen, capture, level):
    """Levels without noise always take it; the noisy ones (2, 3) far more often than
    chance (their noise, up to 4 pawns, may hide a one-pawn gain)."""
    position = rules.get(game).from_fen(fen)
    tries = 1 if not bots.LEVELS[level].noise else 20
    taken = sum(
        bots.choose_move(position, WHITE, level, rng=random.Random(seed), time_limit=FAST)
        == capture
        for seed in range(tries)
    )
    if tries == 1:
        assert taken == 1
    else:
        chance = tries / len(position.legal_moves())
        assert taken > 1.5 * chance, (taken, chance)


def test_level_five_keeps_its_time_budget():
    assert bots.LEVELS[5].seconds <= 5
    position = rules.get("rococo").start()
    found = bots.search(position, WHITE, 5, rng=random.Random(1), time_limit=0.3)
    assert found.text in _legal_texts(position, WHITE)
    assert 0 < found.seconds <= 0.3 + 0.5
    assert found.nodes > 0 and found.depth >= 1


def test_search_reports_its_statistics():
    position = rules.get("carolo").start()
    found = bots.search(position, WHITE, 4, rng=random.Random(1), time_limit=FAST)
    assert found.nodes > 0 and found.depth >= 1 and found.nps > 0


@pytest.mark.parametrize(
    ("game", "budget"), [("shuuro", "800"), ("shuuro", "1200"), ("shuuro", "300"),
                         ("shuuro-mini", "200"), ("shuuro-mini", "150")]
)  # fmt: skip
def test_shuuro_recruitment_stays_within_budget_and_caps(game, budget):
    cls = rules.get(game)
    position = cls.start({"budget": budget})
    rng = random.Random(int(budget))
    for side in (WHITE, BLACK):
        for _ in range(100):
            text = bots.choose_move(position, side, 3, rng=rng)
            position = position.play(position.parse_move(text, side))
            if text == "done":
                break
        else:
            pytest.fail("recruitment did not end with done")
    assert position.phase == "plinths"
    for hand in position.state.hands:
        letters = dict(zip(" PNBRQK", hand, strict=True))
        assert sum(PRICES[k] * letters[k] for k in "QRBNP") <= int(budget)
        assert all(letters[k] <= CAPS[k] for k in "QRBNP")
        assert sum(hand[1:]) <= cls.max_pieces
        assert letters["K"] == 1


def test_the_rulebook_army_is_the_first_template_for_800():
    assert army(TEMPLATES[0], 800, True, 32) == {"Q": 2, "R": 3, "B": 4, "N": 4, "P": 5}


@pytest.mark.parametrize("game", ["shuuro", "shuuro-mini"])
def test_shuuro_deployment_follows_the_rules_and_shelters_the_king(game):
    rng = random.Random(7)
    position = rules.get(game).start()
    while position.phase != "fight":
        acts = position.to_act
        if acts == (CHANCE,):
            position = position.play(rng.choice(position.legal_moves()))
            continue
        side = acts[0]
        text = bots.choose_move(position, side, 5, rng=rng, time_limit=FAST)
        assert text in _legal_texts(position, side)
        position = position.play(position.parse_move(text, side))
    board = position.board().pieces
    width = position.width
    for king, first_rank in (("K", "1"), ("k", str(position.height))):
        square = next(sq for sq, letter in board.items() if letter == king)
        assert square[1:] == first_rank
        if width == 12:
            assert square[0] in "defghi"
    if position.outcome() is None:
        side = position.to_act[0] if position.to_act != (CHANCE,) else None
        if side is not None:
            text = bots.choose_move(position, side, 3, rng=rng, time_limit=FAST)
            assert text in _legal_texts(position, side)


def test_it_refuses_a_side_that_cannot_act():
    position = rules.get("carolo").start()
    with pytest.raises(ValueError):
        bots.choose_move(position, BLACK, 3, rng=random.Random(1))


def test_a_bot_that_is_ahead_does_not_walk_into_a_repetition():
    position = rules.get("shuuro").from_fen("12/12/12/12/5k6/12/12/12/12/12/1Q10/1R9K w - 50")
    first = bots.search(position, WHITE, 3, rng=random.Random(1), time_limit=FAST)
    seen_before = position.play(first.move)
    again = bots.search(
        position, WHITE, 3, rng=random.Random(1), time_limit=FAST, history=[seen_before, position]
    )
    assert again.text != first.text


def test_carge_placement_counts_the_exchange_white_starts():
    from games.bots.eval_carge import CargeEvaluator

    evaluate = CargeEvaluator().evaluate
    cls = rules.get("carge")
    # a4 takes a5 or a3, Black retakes, a1 takes again: White is a pawn up.
    defended = evaluate(cls.from_fen("p4/P4/p4/5/P4 w - 6,6 0,0"))
    # Nothing in sight of anything: no exchange.
    apart = evaluate(cls.from_fen("p4/2P2/4p/5/P4 w - 6,6 0,0"))
    assert defended > apart + 50
