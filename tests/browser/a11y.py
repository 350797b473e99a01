"""Accessibility checks for browser tests: axe-core, vendored in static/vendor/axe-core/.

``assert_no_serious_violations(page, context="home, 375 wide")`` runs the vendored
``axe.min.js`` in the page (from the file, not from the server: the page need not serve it;
evaluated through the browser's DevTools protocol, which the site's Content-Security-Policy
does not govern, where a ``<script>`` element added with the file's text would be blocked),
runs ``axe.run`` on the whole document and fails listing every violation of impact "serious" or
"critical": its rule id, its help text and the selectors of the elements it found. Minor and
moderate ones are left out. Call it once the page shows what is to be checked (after an
``expect(...)`` on it): axe sees the DOM as it is once the animations running then have ended.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parents[2] / "static" / "vendor" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")

#: Waits for the page's running animations that end (a notice fading in would fail the
#: contrast check half-way; endless and paused ones are not waited for), runs axe on the
#: document with its default rules (WCAG 2.0 to 2.2 A and AA and best practices) and returns
#: the violations, each with its nodes' targets only (the whole result is large).
_RUN = """async () => {
  const ending = document.getAnimations().filter((a) => a.playState === "running"
    && a.effect && a.effect.getComputedTiming().endTime !== Infinity);
  await Promise.all(ending.map((a) => a.finished.catch(() => null)));
  const result = await window.axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({target: n.target, impact: n.impact, summary: n.failureSummary})),
  }));
}"""


def violations(page: Any) -> list[dict[str, Any]]:
    """axe's violations on the page as it is now (every impact)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text())
    return list(page.evaluate(_RUN))


def describe(found: list[dict[str, Any]]) -> str:
    """One line a violation, then one a node: its target selectors and what to fix."""
    lines = []
    for violation in found:
        lines.append(f"- {violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            target = " ".join(
                " >> ".join(part) if isinstance(part, list) else part for part in node["target"]
            )
            summary = (node.get("summary") or "").replace("\n", " ")
            lines.append(f"    {target}  [{summary}]")
    return "\n".join(lines)


def assert_no_serious_violations(page: Any, context: str = "") -> None:
    """Fail when axe finds a serious or critical violation on the page, listing each."""
    serious = [v for v in violations(page) if v["impact"] in SERIOUS]
    where = f" on {context}" if context else ""
    assert not serious, (
        f"axe found {len(serious)} serious or critical violation(s){where} ({page.url}):\n"
        + describe(serious)
    )
