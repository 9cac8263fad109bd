// The theme chosen in Settings (static/settings.js), put on <html data-theme> before the page
// is first drawn: a classic script in the head runs before the body is parsed (a module would
// run after, too late to spare a flash of the other theme). Automatic sets nothing: the
// stylesheet follows prefers-color-scheme.
(function () {
  try {
    const theme = window.localStorage.getItem("muster.theme");
    if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  } catch (error) {
    // No storage: automatic.
  }
})();
