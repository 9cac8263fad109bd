// The page's side of an update of the app (the service worker is static/sw.template.js). A new
// build's worker installs in the background and waits; the page then shows a bar, "An update is
// ready", and nothing else changes until the player presses Update. Then what is on screen (the
// game's slot, the scenario) is noted for this tab, the waiting worker is asked to take over,
// and the page reloads once when it has: the app reopens the same game (afterUpdate).
const AFTER_UPDATE = "muster.after-update";
// An app left open (a tablet at the table) looks for a new build when it comes back into view,
// at most this often.
const CHECK_EVERY_MS = 60 * 60 * 1000;

// Watch `registration` for a new build. opts: i18n; onScreen() -> {slot, scenario}, what to
// reopen after the reload.
export function offerUpdates(registration, opts) {
  const container = navigator.serviceWorker;
  let controlled = Boolean(container.controller);
  let pressed = false;
  let reloading = false;
  let lastCheck = Date.now();
  let bar = null;

  function reloadOnce() {
    if (reloading) return;
    reloading = true;
    location.reload();
  }

  function press() {
    pressed = true;
    remember(opts.onScreen ? opts.onScreen() : null);
    const worker = registration.waiting;
    if (!worker) {
      reloadOnce(); // already in control (another tab pressed Update): this page is older
      return;
    }
    worker.addEventListener("statechange", function () {
      if (worker.state === "activated") reloadOnce();
    });
    worker.postMessage({ type: "skip-waiting" });
  }

  function show() {
    if (bar) return;
    bar = updateBar(opts.i18n, press);
    const header = document.querySelector("header.bar");
    if (header) header.after(bar);
    else document.body.prepend(bar);
  }

  // A worker that has installed while another controls the page is an update.
  function watch(worker) {
    if (!worker) return;
    if (worker.state === "installed" && container.controller) show();
    worker.addEventListener("statechange", function () {
      if (worker.state === "installed" && container.controller) show();
    });
  }

  if (registration.waiting && container.controller) show();
  watch(registration.installing);
  registration.addEventListener("updatefound", function () {
    watch(registration.installing);
  });
  container.addEventListener("controllerchange", function () {
    if (pressed) reloadOnce();
    // The first worker taking control of a new visit is no update; a new one taking over
    // from another tab's Update is: this page's code is older than the files now served.
    else if (controlled) show();
    controlled = true;
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible" || Date.now() - lastCheck < CHECK_EVERY_MS) return;
    lastCheck = Date.now();
    registration.update().catch(function () {
      // Offline: the next time in view tries again.
    });
  });
}

// The bar: what is ready, and the button that applies it.
function updateBar(i18n, onPress) {
  const bar = document.createElement("div");
  bar.id = "update-bar";
  bar.className = "update-bar";
  bar.setAttribute("role", "status");
  const text = document.createElement("span");
  text.setAttribute("data-i18n", "ui.update_ready");
  text.textContent = i18n.t("ui.update_ready");
  const button = document.createElement("button");
  button.id = "update-button";
  button.type = "button";
  button.className = "primary";
  button.setAttribute("data-i18n", "ui.update");
  button.textContent = i18n.t("ui.update");
  button.addEventListener("click", function () {
    button.disabled = true;
    onPress();
  });
  bar.append(text, button);
  return bar;
}

function remember(what) {
  try {
    sessionStorage.setItem(AFTER_UPDATE, JSON.stringify(what || {}));
  } catch (error) {
    // No storage: the reload opens on the saved games, the game among them.
  }
}

// What was on screen when the player pressed Update, once, in the page the update reloaded:
// {slot, scenario}, or null on any other start.
export function afterUpdate() {
  try {
    const text = sessionStorage.getItem(AFTER_UPDATE);
    if (text === null) return null;
    sessionStorage.removeItem(AFTER_UPDATE);
    const what = JSON.parse(text);
    return what && typeof what === "object" ? what : {};
  } catch (error) {
    return null;
  }
}
