// The settings dialog's own choices (the language is the app's): the theme, keeping the
// screen awake during a game, and asking before an ending that leaves something unused. Each
// is remembered in this browser. The theme is also applied before the first paint by
// static/theme.js, which reads the same key.
import { ScreenLock } from "./wakelock.js";
import { asksFirst, setAsksFirst } from "./panel_flow.js";
import { diceAtTable, setDiceAtTable } from "./muster.js";

const THEME_KEY = "muster.theme";
const THEMES = ["auto", "light", "dark"];
const WAKE_KEY = "muster.wake-lock";

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch (error) {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch (error) {
    // Private browsing or storage off: the choice lasts this visit only.
  }
}

// The theme remembered: "auto" (as the device says), "light" or "dark".
export function savedTheme() {
  const theme = read(THEME_KEY);
  return THEMES.indexOf(theme) >= 0 ? theme : "auto";
}

// Light or dark on <html data-theme>; automatic leaves it to prefers-color-scheme.
export function applyTheme(theme) {
  const root = document.documentElement;
  if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  else delete root.dataset.theme;
}

// Wire the settings dialog. opts: gameOpen() -> whether a game is on screen; playPanel, the
// element the play panel draws into (redrawn whenever a game opens, changes or closes).
export function initSettings(opts) {
  const theme = document.getElementById("theme");
  if (theme) {
    theme.value = savedTheme();
    applyTheme(theme.value);
    theme.addEventListener("change", function () {
      const chosen = THEMES.indexOf(theme.value) >= 0 ? theme.value : "auto";
      write(THEME_KEY, chosen === "auto" ? null : chosen);
      applyTheme(chosen);
    });
  }

  // Ask before an ending that leaves commands unused or units unmoved (the play panel asks).
  const ask = document.getElementById("ask-unused-setting");
  if (ask) {
    ask.checked = asksFirst();
    ask.addEventListener("change", function () {
      setAsksFirst(ask.checked);
    });
  }

  // Muster's dice: rolled at the table by the player, else digitally (muster.js).
  const dice = document.getElementById("muster-dice-setting");
  if (dice) {
    dice.checked = diceAtTable();
    dice.addEventListener("change", function () {
      setDiceAtTable(dice.checked);
    });
  }

  const box = document.getElementById("wake-lock");
  const note = document.getElementById("wake-lock-note");
  const lock = new ScreenLock(opts.gameOpen);
  if (!box) return lock;
  if (!ScreenLock.supported()) {
    box.checked = false;
    box.disabled = true;
    if (note) note.hidden = false;
    return lock;
  }
  box.checked = read(WAKE_KEY) !== "off";
  box.addEventListener("change", function () {
    write(WAKE_KEY, box.checked ? null : "off");
    lock.setEnabled(box.checked);
  });
  if (opts.playPanel && typeof MutationObserver !== "undefined") {
    new MutationObserver(function () {
      lock.update();
    }).observe(opts.playPanel, { childList: true });
  }
  lock.setEnabled(box.checked);
  return lock;
}
