// Copy buttons: a `button[data-copy="<input id>"]` (hidden until this script runs: without
// JavaScript the field itself is there to select) copies that field's text to the clipboard
// and says so in the nearest `[data-part="copied"]` (a status line), as the replay's share box
// does. Used by the people page's challenge links and a challenge link's own page. No build step.

import { addTexts, gettext_noop, t } from "./cards.js";

addTexts({
  linkCopied: gettext_noop("Link copied."),
  linkCopyFailed: gettext_noop("Select the link and copy it."),
});

function note(button, text) {
  const box = button.closest("[data-copy-box]");
  const node = (box && box.querySelector('[data-part="copied"]')) || document.querySelector('[data-part="copied"]');
  if (node) node.textContent = text;
}

/** Wires every copy button under `root` (a button already wired is skipped). */
export function wireCopyButtons(root = document) {
  for (const button of root.querySelectorAll("button[data-copy]")) {
    if (button.dataset.wired) continue;
    button.dataset.wired = "true";
    button.hidden = false;
    button.addEventListener("click", async () => {
      const input = document.getElementById(button.dataset.copy);
      if (!input) return;
      try {
        await navigator.clipboard.writeText(input.value);
        note(button, t("linkCopied"));
      } catch {
        input.focus();
        input.select(); // no clipboard here (an insecure page, a refused permission): select it
        note(button, t("linkCopyFailed"));
      }
    });
  }
}

wireCopyButtons();
