"""A rating-history line chart, drawn on the server (no script, no outside library).

``rating_chart_svg`` returns markup for a template: a ``<figure>`` whose ``<svg role="img">``
has a ``<title>`` and a ``<desc>`` (read by screen readers), a line through the ratings and a
dot per rated match with its own ``<title>`` (a tooltip). The svg is as wide as its box and a
fixed height: its x coordinates are percentages and nothing in it is scaled, so the chart fills
a phone's card and a laptop's alike. The labels — the highest and lowest rating, the first and
last dates — are HTML beside and under it, in the page's font and size, hidden from screen
readers (the description says the same). Every date is written as the reader's language writes
it (CLDR through Babel: "Mar 16, 2026", "16 thg 3, 2026", "2026 မတ် 16").
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from itertools import pairwise

from babel import Locale
from babel.dates import format_skeleton
from django.conf import settings
from django.utils import timezone, translation
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import ngettext

HEIGHT = 160  # px: the plot's height (its width is its box's)
PAD = 8  # px between the highest and lowest points and the plot's edges: the dots stay whole


def _day(when: datetime) -> date:
    return timezone.localtime(when).date() if timezone.is_aware(when) else when.date()


def day_text(when: datetime) -> str:
    """The day of ``when`` (in the site's time zone), short, as the active language writes
    it: "Mar 16, 2026", "16 thg 3, 2026", "2026 မတ် 16" (Latin digits in every language)."""
    locale = Locale.parse(translation.get_language() or settings.LANGUAGE_CODE, sep="-")
    return str(format_skeleton("yMMMd", _day(when), locale=locale))


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
    last_index = max(1, len(points) - 1)

    def xy(index: int, rating: float) -> tuple[str, float]:
        x = index / last_index * 100 if len(points) > 1 else 50
        y = PAD + (high - rating) / (high - low) * (HEIGHT - 2 * PAD)
        return f"{round(x, 2)}%", round(y, 1)

    coords = [xy(i, r) for i, (_, r) in enumerate(points)]
    days = [day_text(when) for when, _ in points]
    segments = format_html_join(
        "",
        '<line x1="{}" y1="{}" x2="{}" y2="{}"/>',
        ((x0, y0, x1, y1) for (x0, y0), (x1, y1) in pairwise(coords)),
    )
    dots = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="4"><title>{} · {}</title></circle>',
        (
            (x, y, day, round(rating))
            for (x, y), day, (_, rating) in zip(coords, days, points, strict=True)
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
        "first_date": days[0],
        "last": round(last[1]),
        "last_date": days[-1],
        "lowest": round(min(ratings)),
        "highest": round(max(ratings)),
    }
    dates = format_html('<time datetime="{}">{}</time>', _day(first[0]), days[0])
    if days[-1] != days[0]:
        dates += format_html('<time datetime="{}">{}</time>', _day(last[0]), days[-1])
    return format_html(
        '<figure class="rating-chart-figure">'
        '<div class="rating-chart-scale" aria-hidden="true"><span>{high}</span><span>{low}</span>'
        "</div>"
        '<svg class="rating-chart" width="100%" height="{h}" role="img" focusable="false" '
        'aria-labelledby="{id}-title {id}-desc">'
        '<title id="{id}-title">{title}</title><desc id="{id}-desc">{desc}</desc>'
        '<line class="axis" x1="0" y1="{top}" x2="100%" y2="{top}"/>'
        '<line class="axis" x1="0" y1="{bottom}" x2="100%" y2="{bottom}"/>'
        '<g class="line">{segments}</g>{dots}</svg>'
        '<div class="rating-chart-dates" aria-hidden="true">{dates}</div>'
        "</figure>",
        h=HEIGHT,
        id=chart_id,
        title=title,
        desc=desc,
        top=PAD,
        bottom=HEIGHT - PAD,
        high=round(high),
        low=round(low),
        segments=segments,
        dots=dots,
        dates=dates,
    )
