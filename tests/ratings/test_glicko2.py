"""Glicko-2 against Glickman's worked example, plus the site's bounds and inactivity."""

import math

import pytest

from games import glicko2
from games.glicko2 import Rating

PLAYER = Rating(1500, 200, 0.06)
RESULTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_the_papers_worked_example():
    new, step = glicko2.step(PLAYER, RESULTS, tau=0.5)
    assert PLAYER.mu == 0 and PLAYER.phi == pytest.approx(1.1513, abs=1e-4)
    # The paper prints v = 1.7785 and Δ = -0.4834, computed from g and E rounded
    # to 4 and 3 decimals; unrounded they are 1.77898 and -0.48393.
    assert step.v == pytest.approx(1.77898, abs=1e-5)
    assert step.delta == pytest.approx(-0.48393, abs=1e-5)
    assert step.v == pytest.approx(1.7785, abs=1e-3)
    assert step.delta == pytest.approx(-0.4834, abs=1e-3)
    assert step.volatility == pytest.approx(0.05999, abs=1e-5)
    assert step.phi_star == pytest.approx(1.152862, abs=1e-4)
    # Step 7 and 8 agree with the paper to its four decimals.
    assert round(new.mu, 4) == -0.2069
    assert round(new.phi, 4) == 0.8722
    assert round(new.deviation, 2) == 151.52
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)
    # The paper's r' = 1464.06 is its rounded μ' = -0.2069 converted back
    # (-0.2069 · 173.7178 + 1500 = 1464.0578); unrounded μ' gives 1464.0507.
    assert round(round(new.mu, 4) * glicko2.SCALE + 1500, 2) == 1464.06
    assert new.rating == pytest.approx(1464.0507, abs=1e-4)


def test_the_papers_v_and_delta_give_its_volatility():
    # With the paper's own rounded v and Δ, the Illinois iteration gives σ' = 0.05999(6).
    sigma = glicko2.new_volatility(1.1513, 0.06, 1.7785, -0.4834, 0.5)
    assert sigma == pytest.approx(0.05999, abs=1e-5)


def test_the_papers_g_and_e():
    # The paper's table: g(φj) 0.9955, 0.9531, 0.7242 and E 0.639, 0.432, 0.303.
    gs = [glicko2.g(o.phi) for o, _ in RESULTS]
    es = [glicko2.expected(0, o.mu, o.phi) for o, _ in RESULTS]
    assert gs == pytest.approx([0.9955, 0.9531, 0.7242], abs=1e-4)
    assert es == pytest.approx([0.639, 0.432, 0.303], abs=1e-3)


def test_inactivity_widens_the_deviation():
    # φ = 50 / 173.7178 = 0.287823; φ² = 0.082842; 10 · 0.06² = 0.036;
    # √(0.082842 + 0.036) = √0.118842 = 0.344735; · 173.7178 = 59.886.
    widened = glicko2.widen(Rating(1700, 50, 0.06), 10)
    assert widened.deviation == pytest.approx(59.886, abs=1e-3)
    assert widened.rating == pytest.approx(1700) and widened.volatility == 0.06


def test_a_rating_period_is_about_four_and_two_thirds_days():
    assert glicko2.DAYS_PER_PERIOD == pytest.approx(4.665, abs=1e-3)
    assert glicko2.periods_between(4.665 * 3) == pytest.approx(3, abs=1e-3)
    assert glicko2.periods_between(-1) == 0


def test_no_time_since_the_last_game_adds_no_growth():
    player = Rating(1600, 80, 0.06)
    quick = glicko2.update(player, [(Rating(1600, 80), 1.0)], periods=0)
    slow = glicko2.update(player, [(Rating(1600, 80), 1.0)], periods=20)
    assert quick.deviation < slow.deviation
    assert quick.rating < slow.rating  # a wider deviation moves more on a win


def test_the_deviation_stays_within_45_and_500():
    veteran = Rating(2000, 45, 0.06)
    for _ in range(50):
        veteran = glicko2.rate_one_game(veteran, Rating(2000, 45), glicko2.DRAW, periods=0)
    assert veteran.deviation == 45
    newcomer = glicko2.rate_one_game(Rating(), Rating(), glicko2.WIN, periods=1000)
    assert newcomer.deviation <= 500
    assert glicko2.bounded(Rating(1500, 900, 0.5)) == Rating(1500, 500, 0.1)
    assert glicko2.bounded(Rating(1500, 10, 0.05)) == Rating(1500, 45, 0.05)


def test_the_volatility_is_at_most_0_1():
    wild = Rating(1500, 60, 0.1)
    for score in [1, 0] * 10:
        wild = glicko2.rate_one_game(wild, Rating(2500, 45), score, periods=0)
        assert wild.volatility <= 0.1


def test_a_new_player_moves_a_lot_and_symmetrically():
    win = glicko2.rate_one_game(Rating(), Rating(), glicko2.WIN, periods=0)
    loss = glicko2.rate_one_game(Rating(), Rating(), glicko2.LOSS, periods=0)
    draw = glicko2.rate_one_game(Rating(), Rating(), glicko2.DRAW, periods=0)
    assert win.rating - 1500 == pytest.approx(1500 - loss.rating)
    assert win.rating > 1700 and draw.rating == pytest.approx(1500)
    assert win.provisional and not Rating(1500, 109.9).provisional
    assert Rating(1500, 110).provisional


def test_the_illinois_iteration_handles_a_large_surprise():
    # Δ² > φ² + v takes the paper's first branch for B.
    new = glicko2.update(Rating(1500, 50, 0.06), [(Rating(2400, 50), 1.0)], tau=0.75)
    assert math.isfinite(new.volatility) and new.volatility > 0.06
