// The keyboard: everything a finger does, a key does too. Shortcuts press the play panel's
// own buttons (so the rules, the double-tap guard and the confirmations stay one path); `?`
// lists them in the keyboard dialog; the maps' cursors are put into words for the live
// region; the file pickers get real buttons; and the focus survives the panel's redraws.
// Nothing here decides a rule.
import { el } from "./panels.js";

// The last input was a key (true) or a pointer (false): focus is only moved for the keyboard.
let keyboardUsed = false;

// Every shortcut, as the help lists it: key caps (a cap is a letter, or an i18n key "key.*"
// of a key's name; caps of one combination joined by "+", combinations by "/"), and what it
// does. The handler below follows the same table.
const HELP = [
  { keys: [["←"], ["↑"], ["→"], ["↓"]], text: "keys.arrows" },
  { keys: [["key.enter"], ["key.space"]], text: "keys.enter" },
  { keys: [["key.pgdn"], ["key.pgup"]], text: "keys.page" },
  { keys: [["+"], ["−"]], text: "keys.zoom" },
  { keys: [["key.esc"]], text: "keys.escape" },
  { keys: [["U"], ["key.ctrl", "Z"]], text: "keys.undo" },
  { keys: [["R"], ["key.ctrl", "key.shift", "Z"], ["key.ctrl", "Y"]], text: "keys.redo" },
  { keys: [["E"]], text: "keys.end" },
  { keys: [["C"]], text: "keys.choices" },
  { keys: [["M"]], text: "keys.map" },
  { keys: [["G"]], text: "keys.goto", hexes: true },
  { keys: [["L"]], text: "keys.log" },
  { keys: [["key.tab"], ["key.shift", "key.tab"]], text: "keys.tab" },
  { keys: [["?"]], text: "keys.help" },
];

// The value of aria-keyshortcuts on the buttons a shortcut presses.
export const SHORTCUTS = {
  undo: "U Control+Z Meta+Z",
  redo: "R Control+Shift+Z Control+Y Meta+Shift+Z",
  end: "E",
  help: "?",
};

// Wire the keyboard: opts = {i18n, hexMap, areaMap, hexPlay, areaPlay, current() (the play
// of the map shown), scenario() (the scenario on screen), area() (true when the area map
// shows)}.
export function setupKeys(opts) {
  const i18n = opts.i18n;
  const t = function (key, params) {
    return i18n.t(key, params || {});
  };

  document.addEventListener(
    "keydown",
    function () {
      keyboardUsed = true;
    },
    true,
  );
  document.addEventListener(
    "pointerdown",
    function () {
      keyboardUsed = false;
    },
    true,
  );

  describeMaps(opts, t);

  // ---- the file pickers: real buttons that open them ---------------------------------------

  document.querySelectorAll("button[data-opens]").forEach(function (button) {
    button.addEventListener("click", function () {
      const input = document.getElementById(button.getAttribute("data-opens"));
      if (input) input.click();
    });
  });

  // ---- go to a hex: the map takes the focus, its cursor on that hex ------------------------

  const gotoForm = document.getElementById("goto-form");
  const gotoInput = document.getElementById("goto-input");
  gotoForm.addEventListener("submit", function () {
    const label = gotoInput.value.trim();
    if (opts.area() || !opts.hexMap.hasHex(label)) return; // the app says what is wrong
    opts.hexMap.setCursor(label);
    opts.hexMap.focus();
  });

  listenToShortcuts(opts, keysDialog(opts, t));
}

// The maps' names for assistive technology, and their cursors in words: what the live region
// says of the hex, locale, approach or block under the cursor.
function describeMaps(opts, t) {
  const i18n = opts.i18n;
  const maps = [opts.hexMap, opts.areaMap];
  function nameMaps() {
    maps.forEach(function (m) {
      m.container.setAttribute("aria-label", t("keys.map_label"));
      m.container.setAttribute("aria-roledescription", t("keys.map_role"));
    });
  }
  nameMaps();
  // The app sets <html lang> once the words of a language are in: the names follow.
  new MutationObserver(nameMaps).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ["lang"],
  });

  function sideName(id) {
    const side = ((opts.scenario() || {}).sides || []).find((s) => s.id === id);
    return side ? side.name : t("ui.nobody");
  }

  function unitWords(u) {
    const parts = [i18n.fill("keys.unit", { name: u.name, side: sideName(u.side) })];
    if (typeof u.facing === "number") {
      parts.push(i18n.fill("keys.facing", { facing: opts.hexPlay.facingWord(u.facing) }));
    }
    (u.markers || []).forEach((m) => m.title && parts.push(m.title));
    return parts.join(", ");
  }

  function blockWords(p) {
    if (!p) return "";
    if (p.hidden) return i18n.fill("keys.hidden_block", { side: sideName(p.side) });
    const parts = [i18n.fill("keys.unit", { name: p.name || "", side: sideName(p.side) })];
    if (p.steps) parts.push(t("keys.steps", { count: p.steps }));
    (p.markers || []).forEach((m) => m.title && parts.push(m.title));
    return parts.join(", ");
  }

  function flags(what, parts) {
    if (what.selected) parts.push(t("keys.selected"));
    if (what.lit) parts.push(t("keys.lit"));
    return parts.join(". ");
  }

  opts.hexMap.describe = function (what) {
    const parts = [t("ui.hex_title", { hex: what.hex })];
    parts.push(i18n.list(what.terrain.map((id) => t("terrain." + id))));
    if (what.level) parts.push(t("keys.level", { n: what.level }));
    const units = what.units.slice().reverse(); // the top of the stack first
    parts.push(units.length ? units.map(unitWords).join("; ") : t("keys.no_units"));
    return flags(what, parts);
  };

  opts.areaMap.describe = function (what) {
    const parts = [];
    if (what.kind === "locale") {
      const locale = what.locale;
      parts.push(locale.name || "");
      if (locale.capacity != null) parts.push(t("ui.al_capacity", { capacity: locale.capacity }));
      if (locale.objective)
        parts.push(t("ui.al_objective", { points: locale.objective, count: locale.objective }));
    } else if (what.kind === "approach") {
      parts.push(i18n.fill("keys.approach", { name: what.name }));
    } else {
      parts.push(blockWords(what.piece));
      if (what.approachName) parts.push(i18n.fill("keys.on", { name: what.approachName }));
      else parts.push(i18n.fill("keys.in", { place: what.localeName }));
    }
    if (what.pieces) {
      parts.push(what.pieces.length ? what.pieces.map(blockWords).join("; ") : t("keys.no_units"));
    }
    return flags(what, parts);
  };
}

// The keyboard dialog (the ? button and key): every shortcut and its keys. Returns its
// opener.
function keysDialog(opts, t) {
  const dialog = document.getElementById("keys-dialog");
  let returnFocus = null;

  function cap(text) {
    return el("kbd", { text: text.indexOf("key.") === 0 ? t(text) : text });
  }

  function openHelp() {
    const rows = [];
    HELP.forEach(function (row) {
      if (row.hexes && opts.area()) return; // an area map has no hex numbers to go to
      const combos = [];
      row.keys.forEach(function (combo, i) {
        if (i) combos.push(document.createTextNode(" / "));
        const caps = [];
        combo.forEach(function (key, j) {
          if (j) caps.push(document.createTextNode("+"));
          caps.push(cap(key));
        });
        combos.push(el("span", { class: "keys-combo" }, caps));
      });
      rows.push(el("dt", {}, combos), el("dd", { text: t(row.text) }));
    });
    document
      .getElementById("keys-body")
      .replaceChildren(
        el("p", { class: "hint", text: t("keys.intro") }),
        el("dl", { class: "keys-list" }, rows),
      );
    returnFocus = document.activeElement;
    dialog.showModal();
  }
  dialog.addEventListener("close", function () {
    // Back where the keys were pressed (some browsers leave the focus on the page).
    const back = returnFocus;
    returnFocus = null;
    if (back && back.isConnected && document.activeElement !== back) {
      back.focus({ preventScroll: true });
    }
  });
  const help = document.getElementById("help-button");
  help.setAttribute("aria-keyshortcuts", SHORTCUTS.help);
  help.addEventListener("click", openHelp);
  return openHelp;
}

// The shortcuts: letters for the dock's buttons, the panel, the map, go to and the log,
// Control+Z and its kin for undo and redo, ? for the keyboard dialog, Escape to cancel.
function listenToShortcuts(opts, openHelp) {
  const root = function () {
    return opts.current().root;
  };

  function focusMap() {
    (opts.area() ? opts.areaMap : opts.hexMap).focus();
  }

  const letters = {
    u: () => press("#dock #undo"),
    r: () => press("#dock #redo"),
    e: () => press("#dock button.end"),
    c: () => focusFirst(root()),
    m: focusMap,
    g: function () {
      const gotoForm = document.getElementById("goto-form");
      const gotoInput = document.getElementById("goto-input");
      if (gotoForm.hidden || opts.area()) return false;
      gotoInput.focus();
      gotoInput.select();
      return true;
    },
    l: function () {
      const entry = document.querySelector("#log-panel .log-entry, #log-panel button");
      if (!entry) return false;
      entry.focus();
      return true;
    },
  };

  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.isComposing) return;
    // A modal dialog takes its own keys (Escape closes it); typing is typing.
    if (document.querySelector("dialog[open]") || typing(e.target)) return;
    if (covered()) return; // the privacy screen: only its own button
    const key = e.key || "";
    let done = false;
    if ((e.ctrlKey || e.metaKey) && !e.altKey) {
      const k = key.toLowerCase();
      if (k === "z" && !e.shiftKey) done = press("#dock #undo") || true;
      else if ((k === "z" && e.shiftKey) || (k === "y" && !e.shiftKey)) {
        done = press("#dock #redo") || true;
      }
    } else if (e.altKey || e.ctrlKey || e.metaKey) {
      return;
    } else if (key === "?") {
      openHelp();
      done = true;
    } else if (key === "Escape" || key === "Esc") {
      done = cancel();
    } else if (
      key.length === 1 &&
      Object.prototype.hasOwnProperty.call(letters, key.toLowerCase())
    ) {
      letters[key.toLowerCase()]();
      done = true;
    }
    if (done) e.preventDefault();
  });
}

// Press a button of the page, if it is there and enabled; true if pressed.
function press(selector) {
  const button = document.querySelector(selector);
  if (!button || button.disabled || !visible(button)) return false;
  button.click();
  return true;
}

// Escape: the preview, the question before an ending, the stack picker, the selection, the
// look back, the line-of-sight tool, whichever is open (in that order).
function cancel() {
  return (
    press("#preview #cancel") ||
    press("#ask-unused-keep") ||
    press("#picker-cancel") ||
    press("#unselect") ||
    press("#back-to-game") ||
    press("#los-tool[aria-pressed='true']")
  );
}

function typing(target) {
  if (!target || !target.closest) return false;
  return Boolean(target.closest("input, select, textarea, [contenteditable='true']"));
}

function covered() {
  const curtain = document.getElementById("curtain");
  return Boolean(curtain && !curtain.hidden);
}

function visible(node) {
  return Boolean(node.offsetParent || node.getClientRects().length);
}

// What the dock asks to be pressed next, when it asks: a preview's Confirm, the first row of
// a picker, a die's Roll, the look back's way back.
const PRIMARY = ["#preview #confirm", "#picker .pick-row", "#dock .chance #roll", "#back-to-game"];

function primary(root) {
  for (let i = 0; i < PRIMARY.length; i++) {
    const node = root.querySelector(PRIMARY[i]);
    if (node && !node.disabled && visible(node)) return node;
  }
  return null;
}

// The first of the dock's choices (that one, else the first of its choices, else any of its
// buttons after its head, else undo or redo); null when there is none.
function firstChoice(root) {
  const dock = root.querySelector("#dock");
  if (!dock) return null;
  const found = primary(root);
  if (found) return found;
  const usable = function (selector) {
    return Array.prototype.slice
      .call(dock.querySelectorAll(selector))
      .filter((n) => !n.disabled && visible(n));
  };
  const head = dock.querySelector(".dock-head");
  const rest = usable("button, summary").filter((n) => !(head && head.contains(n)));
  return usable(".choices button, .choices summary")[0] || rest[0] || usable("button")[0] || null;
}

function focusFirst(root) {
  const node = firstChoice(root);
  if (!node) return false;
  node.focus();
  return true;
}

// What the play panel's redraw may take away from a keyboard player, given back: call before
// the redraw; the function it returns, after. The focus stays where it is unless it was on
// something the redraw removed or hid: then it goes to the dock's first choice (a preview's
// Confirm, a die's Roll, a picker's first row), or back to the map when the map's Enter opened
// what has now closed. A picker or a preview opened by the map's Enter takes the focus.
export function focusKeeper(play) {
  const root = play.root;
  const before = document.activeElement;
  const hadBox = Boolean(root.querySelector("#picker, #preview"));
  const fromMap = Boolean(play.board.hasFocus && play.board.hasFocus());
  const places = [root, play.logRoot, play.curtain].filter(Boolean);
  const inPanel = Boolean(before && places.some((p) => p.contains(before)));
  return function () {
    if (!keyboardUsed) return;
    const box = root.querySelector("#picker, #preview");
    if (fromMap) {
      const first = box && !hadBox ? primary(root) : null;
      play.keysBackToMap = Boolean(first);
      if (first) first.focus();
      return;
    }
    if (!inPanel) return;
    const gone = !before.isConnected || Boolean(before.closest("[hidden]")) || !visible(before);
    if (!gone) return;
    if (before.id === "undo" || before.id === "redo") {
      const again = root.querySelector("#" + before.id + ":not([disabled])");
      if (again) {
        again.focus();
        return;
      }
    }
    const urgent = primary(root);
    if (urgent) {
      urgent.focus();
      return;
    }
    const back = play.keysBackToMap && !(play.curtain && play.curtain.contains(before));
    play.keysBackToMap = false;
    if (back && !play.covered) {
      play.board.focusMap();
      return;
    }
    if (!focusFirst(root) && !play.covered) play.board.focusMap();
  };
}
