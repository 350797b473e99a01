// The site header on a phone: the links and the language switcher fold behind a Menu button
// (site.css shows the button only on narrow or short screens, once this script runs: without
// it the links stay in view). Escape or a click elsewhere closes the menu and the language
// list. No build step.

function start() {
  const toggle = document.querySelector("[data-menu-toggle]");
  const menu = document.querySelector("[data-menu]");
  const languages = document.querySelector("[data-language-switcher]");
  if (!toggle || !menu) return;

  const setOpen = (open) => {
    toggle.setAttribute("aria-expanded", String(open));
    menu.dataset.open = String(open);
  };
  setOpen(false);
  toggle.addEventListener("click", () => setOpen(toggle.getAttribute("aria-expanded") !== "true"));

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    if (languages && languages.open) {
      languages.open = false;
      languages.querySelector("summary").focus();
    } else if (toggle.getAttribute("aria-expanded") === "true") {
      setOpen(false);
      toggle.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (languages && languages.open && !languages.contains(event.target)) languages.open = false;
    if (toggle.getAttribute("aria-expanded") === "true" && !menu.contains(event.target) && !toggle.contains(event.target)) setOpen(false);
  });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
