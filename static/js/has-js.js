// Marks the page as scripted (<html class="js">) before it is drawn, so the stylesheet can show
// what only works with scripts on. A file of its own: the Content-Security-Policy runs no
// inline script (docs/deploy.md).
document.documentElement.classList.add("js");
