"""leagues.glicko2 against Glickman's worked example ("Example of the Glicko-2 system", 2013)
and the rules the site adds: inactivity growth per rating period, the cap, provisional."""

from __future__ import annotations

import math

import pytest

from leagues import glicko2
from leagues.glicko2 import Rating, inflate, rate

PAPER_PLAYER = Rating(1500, 200, 0.06)
PAPER_GAMES = [
    (Rating(1400, 30), glicko2.WIN),
    (Rating(1550, 100), glicko2.LOSS),
    (Rating(1700, 300), glicko2.LOSS),
]


def test_the_papers_worked_example() -> None:
    after = rate(PAPER_PLAYER, PAPER_GAMES, tau=0.5)
    # The paper prints r' = 1464.06, RD' = 151.52, sigma' = 0.05999. It rounds mu' to -0.2069
    # before converting (1500 + 173.7178 · -0.2069 = 1464.06); unrounded it is 1464.0507.
    assert round((after.rating - 1500) / glicko2.SCALE, 4) == -0.2069
    assert round(after.deviation / glicko2.SCALE, 4) == 0.8722
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert round(after.deviation, 2) == 151.52
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_the_volatility_uses_phi_not_mu() -> None:
    """PyPI's glicko2 2.1.0 puts μ² where the paper has φ² in the volatility function: right
    only for a player rated exactly 1500. Off 1500 our result must follow the paper: moving
    everyone by the same amount changes nothing (only differences of μ matter)."""
    shifted = rate(
        Rating(1600, 200, 0.06),
        [(Rating(o.rating + 100, o.deviation), s) for o, s in PAPER_GAMES],
    )
    base = rate(PAPER_PLAYER, PAPER_GAMES)
    assert shifted.rating - 100 == pytest.approx(base.rating, abs=1e-6)
    assert shifted.deviation == pytest.approx(base.deviation, abs=1e-6)
    assert shifted.volatility == pytest.approx(base.volatility, abs=1e-9)


def test_a_win_raises_a_loss_lowers_and_both_narrow_the_deviation() -> None:
    new = Rating()
    won = rate(new, [(Rating(), glicko2.WIN)])
    lost = rate(new, [(Rating(), glicko2.LOSS)])
    assert won.rating > 1500 > lost.rating
    assert won.rating - 1500 == pytest.approx(1500 - lost.rating)
    assert won.deviation < 350 and lost.deviation < 350
    drawn = rate(new, [(Rating(), glicko2.DRAW)])
    assert drawn.rating == pytest.approx(1500)


def test_inactivity_grows_the_deviation_per_period_up_to_350() -> None:
    settled = Rating(1620, 60, 0.06)
    one = inflate(settled, 1)
    phi = 60 / glicko2.SCALE
    assert one.deviation == pytest.approx(math.sqrt(phi**2 + 0.06**2) * glicko2.SCALE)
    assert inflate(settled, 0) == settled
    # n periods are n steps of φ² + σ²
    step = settled
    for _ in range(5):
        step = inflate(step, 1)
    assert inflate(settled, 5).deviation == pytest.approx(step.deviation)
    assert inflate(settled, 5).rating == 1620 and inflate(settled, 5).volatility == 0.06
    assert inflate(settled, 10_000).deviation == glicko2.MAX_DEVIATION == 350
    assert rate(settled, []) == inflate(settled, 1)  # an idle period in rate() is step 6 alone


def test_provisional_while_the_deviation_is_above_110() -> None:
    assert Rating().provisional
    assert not Rating(1500, 110).provisional
    assert Rating(1500, 110.01).provisional
    # a settled player becomes provisional again after enough idle periods
    settled = Rating(1700, 100, 0.06)
    periods = next(n for n in range(1, 500) if inflate(settled, n).provisional)
    assert periods > 1 and not inflate(settled, periods - 1).provisional
