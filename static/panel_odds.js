// The odds a finger can read: a die's faces each with what it does, and a fight's preview
// with every modifier in columns (value, why, rule), the total, what it must reach, and each
// result's exact chance as a bar. Methods of the play panel (panel.js), drawn from the core's
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
      this.previewBody(pending.answer),
      el("div", { class: "actions confirm-row" }, [
        this.button(this.t("ui.confirm"), () => this.act(pending.item.action), {
          id: "confirm",
          class: "primary",
        }),
        this.button(this.t("ui.cancel"), () => this.cancelPreview(), { id: "cancel" }),
      ]),
    ]);
  },

  previewBody(answer) {
    const nodes = [];
    if (answer.odds)
      nodes.push(el("p", { class: "combat-odds", text: this.t("ui.odds", answer.odds) }));
    const rows = (answer.modifiers || []).map((m) =>
      el("tr", { class: "modifier" }, [
        el("td", { class: "part-value", text: signed(m.value) }),
        el("td", { class: "part-text", text: this.t(m.key, m.params) }),
        el("td", { class: "rule", text: this.ruleText(m.rule) }),
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
    if (answer.provisional) nodes.push(el("p", { class: "hint", text: this.t("ui.provisional") }));
    if (answer.crt) nodes.push(this.crtLabel(answer.crt));
    return el("div", { class: "preview" }, nodes);
  },

  ruleText(rule) {
    return this.t("ui.rule_ref", { rule: rule });
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
