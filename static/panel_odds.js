// The odds a finger can read: a die's faces each with what it does, and a fight's preview
// with every modifier in columns (value, why, rule), the total, what it must reach, and each
// result's exact chance as a bar. A modifier's rule opens the rules reference at the row it
// comes from (panel_rules.js). Methods of the play panel (panel.js), drawn from the core's
// answers only.
//
// A preview in the dock keeps Commit and the prompt in view on a portrait tablet: the list of
// modifiers folds under a line with their total and count (open on a wide screen, and as the
// player last left it), and the dock is fitted to the room the panel shows (fitDock): the
// prompt stays at its top, Commit at its bottom, and only the odds and modifiers between them
// scroll when they are taller than the room.
import { el } from "./panels.js";

// The layout where the panel lies under the map (app.css says the same): the modifiers fold.
const NARROW = "(max-width: 900px), (orientation: portrait)";
// The least height a fitted dock takes, scrolling the panel's own buttons away if need be.
const MIN_ROOM = 260;

export const oddsMethods = {
  chanceBox(chance) {
    const cup = !chance.die;
    const roll = this.button(
      this.t(cup ? "ui.draw_digital" : "ui.roll_digital"),
      () => this.act({ type: "roll" }),
      { id: "roll", class: "primary" },
    );
    const faces = chance.faces.map((face) => {
      const value = cup
        ? this.names().formation(face.value) || String(face.value)
        : String(face.value);
      const node = this.button("", () => this.act({ type: "roll", value: face.value }), {
        class: "face",
        "data-value": String(face.value),
      });
      node.replaceChildren(
        el("span", { class: "face-value", text: value }),
        el("span", { class: "face-result", text: face.result ? this.label(face.result) : "" }),
        el("span", { class: "face-p", text: this.pct(face.p) }),
      );
      return node;
    });
    return el("div", { class: "chance" }, [
      roll,
      el("p", { class: "hint", text: this.t(cup ? "ui.or_draw" : "ui.or_type") }),
      el("div", { class: "faces" }, faces),
    ]);
  },

  pct(p) {
    if (this.i18n.pct) return this.i18n.pct(p);
    return Math.round(p * 1000) / 10 + " %";
  },

  // Before a fight is taken: every modifier (value · reason · rule), the total, what it must
  // reach, and each result's chance as a bar; Commit and Cancel below them, always in view
  // (fitDock).
  previewBox(pending) {
    return el("div", { class: "preview-box", id: "preview" }, [
      el("h3", { class: "preview-title", text: this.label(pending.item) }),
      el("div", { class: "preview-scroll" }, [this.previewBody(pending.answer, false)]),
      el("div", { class: "actions confirm-row" }, [
        this.button(this.t("ui.confirm"), () => this.act(pending.item.action), {
          id: "confirm",
          class: "primary",
        }),
        this.button(this.t("ui.cancel"), () => this.cancelPreview(), { id: "cancel" }),
        this.tableLink(pending.answer),
      ]),
    ]);
  },

  // Whether the list of modifiers is open: as the player last left it, else open where the
  // panel has the height of the screen and folded where it lies under the map.
  modifiersOpen() {
    if (typeof this.openModifiers === "boolean") return this.openModifiers;
    return !(window.matchMedia && window.matchMedia(NARROW).matches);
  },

  // The modifiers folded under one line: "+2 total, 5 modifiers ▸"; a tap opens the list.
  modifiersFold(answer, table) {
    const count = (answer.modifiers || []).length;
    const line = this.t("ui.modifiers_fold", { total: signed(answer.total), count: count });
    if (!count) return el("p", { class: "modifiers-summary", text: line }); // nothing to open
    const attrs = { class: "modifiers-fold" };
    if (this.modifiersOpen()) attrs.open = "";
    const summary = el("summary", { class: "modifiers-summary", text: line });
    const fold = el("details", attrs, [summary, table]);
    // The player's tap (or Enter) is remembered for the next previews; the list drawn open
    // by default is not a choice.
    summary.addEventListener("click", () => {
      this.openModifiers = !fold.open;
    });
    return fold;
  },

  // Fit the dock to the room the panel shows below its top, so that a preview's prompt and
  // its Commit are both in view with no scroll (play.css, .dock.fitted); again whenever the
  // panel changes size. Nothing to fit without a preview.
  fitDock() {
    const dock = this.root.querySelector("#dock");
    const scroller = this.root.closest(".panel");
    if (!dock || !scroller || !dock.querySelector("#preview")) return;
    if (!this.dockWatch && typeof ResizeObserver === "function") {
      this.dockWatch = new ResizeObserver(() => this.fitDock());
      this.dockWatch.observe(scroller);
    }
    dock.classList.add("fitted");
    const box = scroller.getBoundingClientRect();
    const top = box.top + scroller.clientTop;
    const bottom = top + scroller.clientHeight;
    let at = dock.getBoundingClientRect().top;
    if (at < top) {
      scroller.scrollTop -= top - at; // the dock scrolled away with the log: back to it
      at = top;
    }
    if (bottom - at < MIN_ROOM && at > top) {
      // Little room under the game's buttons (a message above them): they scroll away.
      const by = Math.min(MIN_ROOM - (bottom - at), at - top);
      scroller.scrollTop += by;
      at = dock.getBoundingClientRect().top;
    }
    dock.style.setProperty("--dock-room", Math.max(0, Math.floor(bottom - at)) + "px");
  },

  // The modifiers and the odds; the link to the results' table after them unless `withTable`
  // is false (the preview box puts it beside Confirm, where it takes no height of its own).
  previewBody(answer, withTable) {
    const nodes = [];
    if (answer.odds)
      nodes.push(el("p", { class: "combat-odds", text: this.t("ui.odds", answer.odds) }));
    const rows = (answer.modifiers || []).map((m) =>
      el("tr", { class: "modifier" }, [
        el("td", { class: "part-value", text: signed(m.value) }),
        el("td", { class: "part-text", text: this.t(m.key, m.params) }),
        el("td", { class: "rule" }, [this.ruleLink(m.rule, m.ref)]),
      ]),
    );
    rows.push(
      el("tr", { class: "total" }, [
        el("td", { class: "part-value", text: signed(answer.total) }),
        el("td", { class: "part-text", text: this.t("ui.total_label") }),
        el("td", {}),
      ]),
    );
    const table = el("table", { class: "modifiers" }, [
      el("thead", {}, [
        el("tr", {}, [
          el("th", { text: this.t("ui.col_value") }),
          el("th", { text: this.t("ui.col_reason") }),
          el("th", { text: this.t("ui.col_rule") }),
        ]),
      ]),
      el("tbody", {}, rows),
    ]);
    nodes.push(this.modifiersFold(answer, table));
    if (answer.target !== undefined && answer.target !== null) {
      nodes.push(
        el("p", { class: "target", text: this.t("ui.target_roll", { target: answer.target }) }),
      );
    }
    const bars = (answer.outcomes || []).map((o) => {
      const head = o.codes ? this.t("ui.on_rolls", { rolls: o.rolls, codes: o.codes }) + " — " : "";
      const width = Math.max(0, Math.min(100, o.p * 100));
      return el("li", { class: "outcome" }, [
        el("span", { class: "outcome-text", text: head + this.outcomeText(o.outcome) }),
        el("span", { class: "odds-bar" }, [
          el("span", { class: "odds-bar-fill", style: "width:" + width.toFixed(1) + "%" }),
        ]),
        el("span", { class: "odds", text: this.pct(o.p) }),
      ]);
    });
    nodes.push(el("ul", { class: "outcomes" }, bars));
    // What the core adds about these odds, e.g. why a fight cannot have an effect.
    (answer.notes || []).forEach((note) => {
      nodes.push(el("p", { class: "preview-note", text: this.label(note) }));
    });
    if (withTable !== false) nodes.push(this.tableLink(answer));
    if (answer.provisional) nodes.push(el("p", { class: "hint", text: this.t("ui.provisional") }));
    if (answer.crt) nodes.push(this.crtLabel(answer.crt));
    return el("div", { class: "preview" }, nodes);
  },

  // The chart the odds are read on (the answer's `ref`), opened in the rules reference.
  tableLink(answer) {
    if (!answer.ref || !this.openRules) return null;
    return this.button(this.t("ui.rules_table"), () => this.openRules(answer.ref), {
      class: "rules-link table-link",
      "data-ref": answer.ref,
    });
  },

  ruleText(rule) {
    return this.t("ui.rule_ref", { rule: rule });
  },

  // A modifier's rule: a link that opens the rules reference at the row the line comes from
  // (its `ref`), or the rule's words alone when the line names no row.
  ruleLink(rule, ref) {
    const text = this.ruleText(rule);
    if (!ref || !this.openRules) return document.createTextNode(text);
    const link = this.button(text, () => this.openRules(ref), {
      class: "rules-link",
      "data-ref": ref,
      "aria-label": this.t("ui.rules_open", { rule: rule }),
    });
    return link;
  },

  outcomeText(outcome) {
    const none = this.t("ui.no_effect");
    return Object.keys(outcome || {})
      .map((who) => {
        const effects = outcome[who].map((e) =>
          typeof e === "string" ? this.t("effect." + e) : this.label(e),
        );
        return this.t("ui." + who) + ": " + (effects.join(", ") || none);
      })
      .join(" · ");
  },

  // Below the dock: the fight in progress, the facts the core lists, the tables in use.
};

function signed(value) {
  return (value > 0 ? "+" : value < 0 ? "−" : "±") + Math.abs(value);
}
