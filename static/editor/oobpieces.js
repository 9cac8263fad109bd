// The pieces of a VASSAL module taken into the order of battle (methods of OrderOfBattle,
// static/editor/oob.js): the module's piece names come in groups (its palettes or prototypes,
// vassal_pieces.js), each taken or not and given a side; the markers are left out unless the
// owner ticks them. A module of 1,500 names is a few dozen groups: a few taps, one change.

import { el } from "./forms.js";

// The words of a name, for matching a palette ("German units") with a side ("Germany").
function words(text) {
  return String(text || "")
    .toLowerCase()
    .normalize("NFC")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 4);
}

// Do two words share their start (five letters, or the whole of a shorter one)?
function alike(a, b) {
  const n = Math.min(5, a.length, b.length);
  return a.slice(0, n) === b.slice(0, n);
}

export const pieceMethods = {
  // The groups of a module's pieces (vassal.js's pieceGroups), each {name, pieces, marker}:
  // kept with whether to take it and for which side.
  setPieceGroups(groups) {
    this.pieceGroups = (groups || [])
      .filter((g) => g && Array.isArray(g.pieces) && g.pieces.length)
      .map((g) => ({
        name: String(g.name || ""),
        pieces: g.pieces.map((n) => String(n).trim()).filter(Boolean),
        marker: Boolean(g.marker),
        take: !g.marker,
        side: null,
      }));
    this.piecesTaken = 0;
    this.piecesOpen = this.pieceGroups.length > 0; // open until they are taken
  },

  // The side a group goes to by default: the side named in its palette, else the first.
  guessSide(group, sides) {
    const mine = words(group.name);
    const named = sides.find((s) =>
      words(this.name(s.name))
        .concat(words(s.id))
        .some((w) => mine.some((m) => alike(w, m))),
    );
    return (named || sides[0] || {}).id || null;
  },

  // The chooser: one row per group (take it or not, its count, its side) and the button that
  // adds the chosen ones; nothing without groups.
  drawPieceChooser() {
    const groups = this.pieceGroups || [];
    const sides = this.scenario.sides || [];
    if (!groups.length || !sides.length) {
      this.piecesEl.replaceChildren();
      this.piecesEl.hidden = true;
      return;
    }
    this.piecesEl.hidden = false;
    const ids = new Set(sides.map((s) => s.id));
    const rows = groups.map((group, i) => {
      if (!ids.has(group.side)) group.side = this.guessSide(group, sides);
      const name = group.name || this.t("editor.oob.group_unnamed");
      const box = el("input", {
        type: "checkbox",
        class: "oob-group-take",
        "data-group": String(i),
        checked: group.take,
      });
      box.addEventListener("change", () => {
        group.take = box.checked;
        this.countChosen();
      });
      const side = el(
        "select",
        {
          class: "oob-group-side",
          "data-group": String(i),
          "aria-label": this.say("editor.oob.group_side", { name: name }),
        },
        sides.map((s) =>
          el("option", { value: s.id, selected: s.id === group.side, text: this.name(s.name) }),
        ),
      );
      side.addEventListener("change", () => {
        group.side = side.value;
      });
      return el(
        "li",
        {
          class: "oob-group" + (group.marker ? " is-marker" : ""),
          "data-group": String(i),
          "data-marker": group.marker ? "1" : null,
        },
        [
          el("label", { class: "oob-group-name" }, [
            box,
            el("span", { text: name }),
            el("span", {
              class: "oob-group-count",
              text: this.t("editor.oob.group_count", { count: group.pieces.length }),
            }),
            group.marker
              ? el("span", { class: "oob-group-marker", text: this.t("editor.oob.group_markers") })
              : null,
          ]),
          side,
        ],
      );
    });
    this.piecesAdd = el("button", {
      type: "button",
      class: "oob-pieces-add",
      onclick: () => this.addChosenPieces(),
    });
    this.piecesSaid = el("p", { class: "oob-pieces-said", role: "status" });
    this.piecesEl.replaceChildren(
      el("summary", { text: this.t("editor.oob.module_pieces") }),
      el("p", { class: "hint", text: this.t("editor.oob.module_pieces_help") }),
      el("div", { class: "oob-buttons" }, [
        el("button", {
          type: "button",
          class: "oob-groups-units",
          text: this.t("editor.oob.groups_units"),
          onclick: () => this.chooseGroups((g) => !g.marker),
        }),
        el("button", {
          type: "button",
          class: "oob-groups-none",
          text: this.t("editor.oob.groups_none"),
          onclick: () => this.chooseGroups(() => false),
        }),
      ]),
      el("ul", { class: "oob-groups" }, rows),
      this.piecesAdd,
      this.piecesSaid,
    );
    this.piecesEl.open = Boolean(this.piecesOpen);
    this.piecesEl.ontoggle = () => {
      this.piecesOpen = this.piecesEl.open;
    };
    this.countChosen();
  },

  chooseGroups(test) {
    (this.pieceGroups || []).forEach((g, i) => {
      g.take = test(g);
      const box = this.piecesEl.querySelector(`.oob-group-take[data-group="${i}"]`);
      if (box) box.checked = g.take;
    });
    this.countChosen();
  },

  chosenCount() {
    return (this.pieceGroups || []).reduce((n, g) => n + (g.take ? g.pieces.length : 0), 0);
  },

  countChosen() {
    const count = this.chosenCount();
    this.piecesAdd.textContent = this.t("editor.oob.pieces_add", { count });
    this.piecesAdd.disabled = count === 0;
  },

  // One unit per chosen piece name, on its group's side: one change.
  addChosenPieces() {
    const bySide = new Map();
    for (const g of this.pieceGroups || []) {
      if (!g.take || !g.side) continue;
      if (!bySide.has(g.side)) bySide.set(g.side, []);
      bySide.get(g.side).push(...g.pieces);
    }
    const count = this.chosenCount();
    if (!count) return;
    this.addUnits(Array.from(bySide, ([side, names]) => ({ side, names })));
    this.piecesTaken += count;
    this.piecesOpen = false;
    this.piecesEl.open = false;
    this.piecesSaid.textContent = this.t("editor.oob.paste_added", { count });
  },
};
