// The fit check of tests/browser/fit.py, run in the page: the problems found, in words.
({parts, tap, legible}) => {
  const problems = [];
  const vw = window.innerWidth, vh = window.innerHeight;
  const doc = document.documentElement;
  if (doc.scrollHeight > vh) problems.push(`the page scrolls down: ${doc.scrollHeight} > ${vh}`);
  if (doc.scrollWidth > vw) problems.push(`the page scrolls sideways: ${doc.scrollWidth} > ${vw}`);
  for (const [name, selector] of Object.entries(parts)) {
    const nodes = [...document.querySelectorAll(selector)];
    if (!nodes.length) { problems.push(`${name}: not on the page (${selector})`); continue; }
    nodes.forEach((node, i) => {
      const r = node.getBoundingClientRect();
      const label = nodes.length > 1 ? `${name} #${i + 1}` : name;
      if (r.width === 0 || r.height === 0) { problems.push(`${label}: not shown`); return; }
      if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
        problems.push(`${label}: outside the viewport (${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)})`);
        return;
      }
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !(hit === node || node.contains(hit))) {
        problems.push(`${label}: covered by ${hit ? hit.outerHTML.slice(0, 80) : "nothing"}`);
      }
      const tappable = node.matches("button:not([aria-disabled=true]), a") || node.querySelector("button:not([aria-disabled=true])");
      if (tap && tappable) {
        if (r.width < tap || r.height < tap) problems.push(`${label}: ${Math.round(r.width)}x${Math.round(r.height)} px, under ${tap}x${tap}`);
        const corner = node.querySelector(".pc-card:not(.pc-back):not(.pc-empty):last-child .pc-corner");
        if (corner && parseFloat(getComputedStyle(corner).fontSize) < legible) {
          problems.push(`${label}: its rank is ${getComputedStyle(corner).fontSize} high`);
        }
      }
    });
  }
  return problems;
}
