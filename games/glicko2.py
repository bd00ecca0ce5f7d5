"""The Glicko-2 rating system, as in Glickman's "Example of the Glicko-2 system".

Plain Python, no Django. Ratings are given and returned on the Glicko scale
(1500, 350 ...); the steps below work on the Glicko-2 scale (μ, φ), as the paper
does. The site's parameters are lichess's: a new player starts at 1500 with a
deviation of 500 and a volatility of 0.09, τ is 0.75, the deviation is kept
between 45 and 500 and the volatility at most 0.1.

Lichess rates one game at a time, and so does the site: the rating period of
the paper becomes the time since the player's last rated game, counted in
periods of about 4.665 days (fractional), and it replaces the 1 of the paper's
step 6 (φ* = √(φ² + t·σ'²)).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2 scale factor, 400 / ln 10
START_RATING = 1500.0
START_DEVIATION = 500.0
START_VOLATILITY = 0.09
TAU = 0.75
MIN_DEVIATION = 45.0
MAX_DEVIATION = 500.0
MAX_VOLATILITY = 0.1
PROVISIONAL_DEVIATION = 110.0  # at or above it, a rating is shown with a "?"
DAYS_PER_PERIOD = 1 / 0.21436  # lichess's ratingPeriodsPerDay: about 4.665 days
EPSILON = 0.000001  # convergence of the volatility iteration, as in the paper

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


def is_provisional(deviation: float) -> bool:
    """Whether a rating with this deviation is shown as provisional (with a "?")."""
    return deviation >= PROVISIONAL_DEVIATION


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - 1500) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE

    @classmethod
    def from_glicko2(cls, mu: float, phi: float, volatility: float) -> Rating:
        return cls(mu * SCALE + 1500, phi * SCALE, volatility)

    @property
    def provisional(self) -> bool:
        return is_provisional(self.deviation)


@dataclass(frozen=True)
class Step:
    """The paper's intermediate values, kept for checking."""

    v: float
    delta: float
    volatility: float
    phi_star: float


def g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))


def periods_between(days: float) -> float:
    """Rating periods in ``days`` days, fractional, never negative."""
    return max(days, 0.0) / DAYS_PER_PERIOD


def widen(player: Rating, periods: float) -> Rating:
    """The deviation after ``periods`` rating periods without a game: √(φ² + t·σ²)."""
    phi = math.sqrt(player.phi**2 + periods * player.volatility**2)
    return Rating.from_glicko2(player.mu, phi, player.volatility)


def new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm (regula falsi)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def step(
    player: Rating, results: Iterable[tuple[Rating, float]], tau: float = TAU, periods: float = 1.0
) -> tuple[Rating, Step]:
    """Steps 2 to 8 of the paper for ``player`` against ``(opponent, score)`` pairs.

    ``periods`` is the t of step 6; the paper's rating period is 1.
    """
    mu, phi, sigma = player.mu, player.phi, player.volatility
    results = list(results)
    if not results:
        return widen(player, periods), Step(math.inf, 0.0, sigma, phi)
    inverse_v = 0.0
    improvement = 0.0
    for opponent, score in results:
        g_j = g(opponent.phi)
        e_j = expected(mu, opponent.mu, opponent.phi)
        inverse_v += g_j * g_j * e_j * (1 - e_j)
        improvement += g_j * (score - e_j)
    v = 1 / inverse_v
    delta = v * improvement
    sigma_new = new_volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + periods * sigma_new * sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Rating.from_glicko2(mu_new, phi_new, sigma_new), Step(v, delta, sigma_new, phi_star)


def update(
    player: Rating, results: Iterable[tuple[Rating, float]], tau: float = TAU, periods: float = 1.0
) -> Rating:
    """The paper's update, unbounded."""
    return step(player, results, tau, periods)[0]


def bounded(player: Rating) -> Rating:
    """Keep the deviation within 45..500 and the volatility at most 0.1."""
    return Rating(
        player.rating,
        min(max(player.deviation, MIN_DEVIATION), MAX_DEVIATION),
        min(player.volatility, MAX_VOLATILITY),
    )


def rate_one_game(
    player: Rating, opponent: Rating, score: float, periods: float, tau: float = TAU
) -> Rating:
    """The site's update after one game: ``periods`` since the player's last rated game."""
    return bounded(update(bounded(player), [(opponent, score)], tau, periods))
