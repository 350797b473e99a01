"""A rating-history line chart, drawn as SVG on the server (no script, no outside library).

``rating_chart_svg`` returns markup for a template: an ``<svg role="img">`` with a ``<title>``
and ``<desc>`` (read by screen readers), a polyline through the ratings, a dot per rated match
with its own ``<title>`` (a tooltip), and axis labels: the lowest and highest rating, the
first and last dates. The description is in the active language (its dates too); the axis
and tooltip dates are ISO, the same in every language.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import ngettext

WIDTH, HEIGHT = 320, 120
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 10, 22  # room for the axis labels


def rating_chart_svg(
    points: Sequence[tuple[datetime, float]], *, title: str, chart_id: str = "rating-chart"
) -> SafeString:
    """The chart of ``points`` — (when, rating after that match) in time order, the starting
    rating first. An empty list gives an empty string."""
    if not points:
        return SafeString("")
    ratings = [r for _, r in points]
    low, high = min(ratings), max(ratings)
    if high - low < 20:  # a flat line sits in the middle of a 20-point band
        middle = (high + low) / 2
        low, high = middle - 10, middle + 10
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / max(1, len(points) - 1)

    def xy(index: int, rating: float) -> tuple[float, float]:
        x = LEFT + (index * step if len(points) > 1 else plot_w / 2)
        y = TOP + (high - rating) / (high - low) * plot_h
        return round(x, 1), round(y, 1)

    coords = [xy(i, r) for i, (_, r) in enumerate(points)]
    polyline = " ".join(f"{x},{y}" for x, y in coords)
    dots = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="3"><title>{} · {}</title></circle>',
        (
            (x, y, when.strftime("%Y-%m-%d"), round(rating))
            for (x, y), (when, rating) in zip(coords, points, strict=True)
        ),
    )
    first, last = points[0], points[-1]
    matches = len(points) - 1
    desc = ngettext(
        "%(count)s rated match, from %(first)s on %(first_date)s to %(last)s on "
        "%(last_date)s; lowest %(lowest)s, highest %(highest)s.",
        "%(count)s rated matches, from %(first)s on %(first_date)s to %(last)s on "
        "%(last_date)s; lowest %(lowest)s, highest %(highest)s.",
        matches,
    ) % {
        "count": matches,
        "first": round(first[1]),
        "first_date": date_format(first[0], "DATE_FORMAT"),
        "last": round(last[1]),
        "last_date": date_format(last[0], "DATE_FORMAT"),
        "lowest": round(min(ratings)),
        "highest": round(max(ratings)),
    }
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
        'aria-labelledby="{id}-title {id}-desc" xmlns="http://www.w3.org/2000/svg">'
        '<title id="{id}-title">{title}</title><desc id="{id}-desc">{desc}</desc>'
        '<line class="axis" x1="{l}" y1="{t}" x2="{l}" y2="{b}"/>'
        '<line class="axis" x1="{l}" y1="{b}" x2="{r}" y2="{b}"/>'
        '<text class="label" x="{lx}" y="{ty}" text-anchor="end">{high}</text>'
        '<text class="label" x="{lx}" y="{by}" text-anchor="end">{low}</text>'
        '<text class="label" x="{l}" y="{dy}">{d0}</text>'
        '<text class="label" x="{r}" y="{dy}" text-anchor="end">{d1}</text>'
        '<polyline class="line" fill="none" points="{polyline}"/>{dots}</svg>',
        w=WIDTH,
        h=HEIGHT,
        id=chart_id,
        title=title,
        desc=desc,
        l=LEFT,
        r=WIDTH - RIGHT,
        t=TOP,
        b=HEIGHT - BOTTOM,
        lx=LEFT - 4,
        ty=TOP + 4,
        by=HEIGHT - BOTTOM,
        dy=HEIGHT - 6,
        high=round(high),
        low=round(low),
        d0=f"{first[0]:%Y-%m-%d}",
        d1=f"{last[0]:%Y-%m-%d}",
        polyline=polyline,
        dots=dots,
    )
