// The rules of a match (templates/lobby/_knobs.html): choosing a preset fills the knobs in with
// its rules; changing a knob chooses "Custom". Without this script the form works the same:
// the server takes a preset's rules and ignores the knobs unless "Custom" is chosen.
for (const box of document.querySelectorAll("[data-presets]")) {
  const form = box.closest("form");
  const custom = box.querySelector('input[value="custom"]');
  const presets = JSON.parse(box.dataset.presets || "{}");
  const knob = (name) => form.querySelector(`[name$="${name}"]:not([type="radio"])`);
  box.addEventListener("change", (event) => {
    const rules = presets[event.target.value];
    if (!rules) return;
    for (const [name, value] of Object.entries(rules)) {
      const input = knob(name);
      if (!input) continue;
      if (input.type === "checkbox") input.checked = value;
      else input.value = value;
    }
  });
  const details = form.querySelector(".custom-rules");
  details?.addEventListener("change", () => { custom.checked = true; });
  details?.addEventListener("input", () => { custom.checked = true; });
}
