"""The rating chart (leagues/charts.py): a plot as wide as its box, its labels in the page's
own text, and every date as the reader's language writes it (Babel's CLDR; Bengali and Burmese
in their own digits), never ISO."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.utils import timezone, translation

from leagues.charts import day_text, rating_chart_svg

POINTS = [
    (datetime(2026, 3, 2, 9, 0, tzinfo=UTC), 1500.0),
    (datetime(2026, 3, 9, 18, 0, tzinfo=UTC), 1662.4),
    (datetime(2026, 3, 16, 20, 30, tzinfo=UTC), 1580.0),
]


def chart(language: str) -> str:
    with translation.override(language):
        return str(rating_chart_svg(POINTS, title="Alice's rating in North", chart_id="c"))


def labels(html: str, part: str) -> list[str]:
    """The visible texts of the chart's ``rating-chart-<part>`` box."""
    box = re.search(rf'<div class="rating-chart-{part}" aria-hidden="true">(.*?)</div>', html)
    assert box, f"no {part} labels"
    return re.findall(r">([^<>]+)<", box.group(1))


@pytest.mark.parametrize(
    ("language", "first", "last"),
    [
        ("en", "Mar 2, 2026", "Mar 16, 2026"),
        ("vi", "2 thg 3, 2026", "16 thg 3, 2026"),
        ("my", "2026 မတ် 2", "2026 မတ် 16"),
        ("bn", "2 মার্চ, 2026", "16 মার্চ, 2026"),
    ],
)
def test_the_dates_read_in_the_readers_language(language, first, last):
    html = chart(language)
    assert labels(html, "dates") == [first, last]
    assert "2026-03" not in re.sub(r'datetime="[^"]*"', "", html)  # no ISO date a reader sees
    assert '<time datetime="2026-03-02">' in html  # machines still get the day
    desc = re.search(r"<desc[^>]*>(.*?)</desc>", html).group(1)
    assert first in desc and last in desc
    # each dot's tooltip: the day and the rating after that match
    assert re.findall(r"<circle[^>]*><title>(.*?)</title>", html)[1].endswith(" · 1662")


def test_the_scale_is_the_lowest_and_highest_rating_and_the_plot_fills_its_box():
    html = chart("en")
    assert labels(html, "scale") == ["1662", "1500"]
    svg = re.search(r"<svg[^>]*>", html).group(0)
    assert 'width="100%"' in svg and "viewBox" not in svg  # not scaled: its text never shrinks
    assert 'role="img"' in svg and 'aria-labelledby="c-title c-desc"' in svg
    xs = re.findall(r'<circle cx="([\d.]+)%"', html)
    assert xs == ["0.0", "50.0", "100.0"]
    assert html.count("<line x1=") == 2  # the line from dot to dot


def test_a_day_is_the_day_in_the_sites_time_zone():
    with translation.override("my"), timezone.override("Asia/Yangon"):  # 06:30 ahead of UTC
        assert day_text(datetime(2026, 3, 16, 20, 0, tzinfo=UTC)) == "2026 မတ် 17"


def test_no_points_no_chart():
    assert rating_chart_svg([], title="x") == ""
