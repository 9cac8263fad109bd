// The odds a finger can read: a die's faces each with what it does, and a fight's preview
// with every modifier in columns (value, why, rule), the total, what it must reach, and each
// result's exact chance as a bar. A modifier's rule opens the rules reference at the row it
// comes from (panel_rules.js). Methods of the play panel (panel.js), drawn from the core's
// answers only.
import { el } from "./panels.js";

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
  // reach, and each result's exact chance as a bar.
  previewBox(pending) {
    return el("div", { class: "preview-box", id: "preview" }, [
      el("h3", { class: "preview-title", text: this.label(pending.item) }),
      this.previewBody(pending.answer, false),
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
    nodes.push(
      el("table", { class: "modifiers" }, [
        el("thead", {}, [
          el("tr", {}, [
            el("th", { text: this.t("ui.col_value") }),
            el("th", { text: this.t("ui.col_reason") }),
            el("th", { text: this.t("ui.col_rule") }),
          ]),
        ]),
        el("tbody", {}, rows),
      ]),
    );
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
