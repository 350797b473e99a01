"""The table's fit check, shared by every browser test of the table and by the panels later
issues add (a hint, a fair deal, a chat): each part a player must see is inside the viewport
and not covered (``elementFromPoint`` at its centre is itself or inside it), everything a
player taps is at least ``tap`` CSS pixels square with its rank legible, and the page does not
scroll.

    from tests.browser.fit import assert_table_fits
    assert_table_fits(page, tap=40)                       # the table as it stands
    assert_table_fits(page, extra={"hint": "[data-part=hint-panel]"})
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: The parts of the table a player must see at once, by selector; a selector naming several
#: elements (the side stacks, the hand) checks each. Whose turn it is reads from the result's
#: title once the game is over.
TABLE_PARTS = {
    "the opponent's pay-off": "[data-area=top] [data-part=payoff] .slot",
    "the opponent's side stacks": "[data-area=top] [data-part=sides] .slot",
    "the opponent's hand": "[data-area=top] [data-part=hand-backs]",
    "the stock": "[data-part=stock] .slot",
    "the center stacks": "[data-part=centers] .slot",
    "your pay-off": "[data-area=bottom] [data-part=payoff] .slot",
    "your side stacks": "[data-area=bottom] [data-part=sides] .slot",
    "your hand": "[data-part=hand-cards] .slot",
    "whose turn": "[data-part=turn]:not([hidden]) [data-part=status], "
    "[data-part=result]:not([hidden]) [data-part=result-title]",
    "the score": "[data-part=score-0], [data-part=score-1]",
}

#: The smallest corner rank, in CSS pixels, that still reads on a phone.
LEGIBLE_RANK = 11

#: The check itself, run in the page (fit.js): ``({parts, tap, legible}) => [problems]``.
_CHECK = (Path(__file__).with_name("fit.js")).read_text()


def table_fit_problems(
    page: Any,
    *,
    tap: int = 0,
    extra: dict[str, str] | None = None,
    omit: tuple[str, ...] = (),
) -> list[str]:
    """What fails the fit check, in words (empty when the table fits)."""
    parts = {name: part for name, part in TABLE_PARTS.items() if name not in omit}
    parts.update(extra or {})
    return page.evaluate(_CHECK, {"parts": parts, "tap": tap, "legible": LEGIBLE_RANK})


def assert_table_fits(
    page: Any,
    *,
    tap: int = 0,
    extra: dict[str, str] | None = None,
    omit: tuple[str, ...] = (),
) -> None:
    """Fail, listing every problem, unless the table fits the viewport (``tap``: the smallest
    size of what a player taps, 0 to skip; ``extra``: more parts, by name and selector;
    ``omit``: parts of ``TABLE_PARTS`` a page has not, such as the lesson's score)."""
    problems = table_fit_problems(page, tap=tap, extra=extra, omit=omit)
    size = page.viewport_size
    assert not problems, f"the table does not fit {size['width']}x{size['height']}:\n" + "\n".join(
        problems
    )
