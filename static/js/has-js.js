// Marks the page as scripted (<html class="js">) before it is drawn, so the stylesheet can show
// what only works with scripts on, and remembers the browser's time zone in the `tz` cookie:
// the server shows times in it from the next page on (core/timezones.py). A file of its own:
// the Content-Security-Policy runs no inline script (docs/deploy.md).
document.documentElement.classList.add("js");

(() => {
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (_error) {
    return; // no Intl: the server keeps the profile's zone, or UTC
  }
  if (!/^[A-Za-z0-9_+\-/]{1,64}$/.test(zone)) return;
  const now = document.cookie.split("; ").find((pair) => pair.startsWith("tz="));
  if (now === `tz=${zone}`) return;
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `tz=${zone}; path=/; max-age=31536000; SameSite=Lax${secure}`;
})();
