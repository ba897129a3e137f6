// Set the remembered theme before the first paint, so the page never flashes the wrong colours.
// A classic script in the page's head (not a module, not deferred) so it runs before the body is drawn;
// a file rather than inline, so the Content-Security-Policy can forbid inline scripts.
(function () {
  var saved = null;
  try { saved = localStorage.getItem("ludus.theme"); } catch (e) {}
  var dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.dataset.theme = saved || (dark ? "dark" : "light");
})();
