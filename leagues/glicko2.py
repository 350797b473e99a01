# ruff: noqa: RUF002, RUF003  (the paper's Greek letters: μ, φ, σ, τ, Δ)
"""Glicko-2, as in Mark Glickman's "Example of the Glicko-2 system" (2013): pure, typed, small.

Ratings are given and returned on the Glicko scale (1500, deviation 350); inside, the
Glicko-2 scale (μ = (r - 1500) / 173.7178, φ = RD / 173.7178). The volatility is found with
the Illinois algorithm of the paper's step 5.

Why not the ``glicko2`` package on PyPI (2.1.0)? It is Ryan Kirkman's 2009 module: an untyped,
mutable ``Player`` with name-mangled state and τ as a class attribute, and its volatility
function ``f`` uses the player's rating μ² where the paper has φ², so it is right only for a
player rated exactly 1500 (as in the paper's example, which is why its test passes).
docs/leagues.md has the details.

How the site uses it (``leagues.services.rating_apply_match``): each ranked match is rated at
once as a rating period of one game for each player; before that, a player's deviation grows
by the whole rating periods they sat out (``inflate``), and the selectors show the same
inflation, so an inactive player's rating becomes provisional again.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

#: Glicko-2's scale factor between the Glicko scale and its own (173.7178 = 400 / ln 10).
SCALE = 173.7178
#: A new player: rating 1500, deviation 350, volatility 0.06 (the paper's suggestions).
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
#: A deviation never grows past a new player's.
MAX_DEVIATION = START_DEVIATION
#: Ratings are provisional while the deviation is above this (shown with a "?").
PROVISIONAL_DEVIATION = 110.0
#: The system constant τ: how fast the volatility may change. The paper suggests 0.3 to 1.2;
#: 0.5 is its example's value and mid-range. A smaller τ damps the volatility, which suits a
#: site where every match is its own one-game rating period: a single upset must not swing
#: the volatility (and with it every later deviation) much.
TAU = 0.5
#: The convergence tolerance of the volatility iteration (the paper's ε).
EPSILON = 0.000001

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating, rating deviation (RD) and volatility σ, on the Glicko scale."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def inflate(player: Rating, periods: int) -> Rating:
    """The player after ``periods`` whole rating periods without a game (the paper's step 6
    for a player who did not compete, once per period): φ* = √(φ² + σ²), capped at
    ``MAX_DEVIATION``."""
    if periods <= 0:
        return player
    phi = player.deviation / SCALE
    # σ stays the same over the idle periods, so n steps of φ² + σ² add n·σ².
    phi = math.sqrt(phi * phi + periods * player.volatility * player.volatility)
    return Rating(player.rating, min(phi * SCALE, MAX_DEVIATION), player.volatility)


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility σ', by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
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
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Iterable[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """The player's rating after one rating period with ``results``: (opponent, score) pairs,
    the score 1 for a win, 0.5 for a draw, 0 for a loss, opponents as they stood at the start
    of the period. With no results, the idle period's step 6 alone (``inflate`` by one)."""
    games = list(results)
    if not games:
        return inflate(player, 1)
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    # Steps 3 and 4: the estimated variance v and improvement Δ.
    v_inverse = 0.0
    improvement = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - START_RATING) / SCALE
        phi_j = opponent.deviation / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * improvement
    # Step 5, then 6 and 7: volatility, pre-period deviation, new deviation and rating.
    sigma_new = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(START_RATING + SCALE * mu_new, min(SCALE * phi_new, MAX_DEVIATION), sigma_new)
