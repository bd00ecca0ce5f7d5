"""The engine benchmark counts perft deep enough for a rate to mean something."""

from bench import engines
from games import rules

ROCOCO = rules.get("rococo")


def test_perft_stops_at_the_first_depth_that_takes_long_enough():
    # Rococo's start: 22 moves, 484 positions at depth 2 (shared perft figures)
    rate = engines.perft_rate(ROCOCO.start(), min_seconds=0)
    assert (rate["depth"], rate["nodes"]) == (1, 22)


def test_perft_deepens_up_to_the_deepest_depth(monkeypatch):
    monkeypatch.setattr(engines, "MAX_DEPTH", 2)
    rate = engines.perft_rate(ROCOCO.start(), min_seconds=3600)
    assert (rate["depth"], rate["nodes"]) == (2, 484)


def test_perft_stops_where_no_leaf_is_left():
    # White's frozen king f5 cannot move and its immobilizer g5 can only commit
    # suicide (1 move, 49 replies); then one black immobilizer still freezes the lone
    # king: stalemate, no leaf at depth 3 (tests/rules/test_rococo.py)
    fen = "91/91/7k2/91/5m4/5KM3/5m4/91/91/91 w 0 -"
    rate = engines.perft_rate(ROCOCO.from_fen(fen), min_seconds=3600)
    assert (rate["depth"], rate["nodes"]) == (3, 0)
