// The scenario as the core says it (docs/play-view.md, "Objectives, standing and the
// briefing"): each side's standing under the prompt, and the briefing (the description, the
// sides, the turns, the objectives and who holds them, the victory conditions and the tables
// in use, Muster's own assumptions marked), shown at New game and from the Scenario button.
// Nothing here knows a system: every word is a label of the core's.
import { el } from "./panels.js";

// Whether the briefing opens at New game: on unless the player turned it off (settings).
const BRIEF_KEY = "muster.briefing";

export function briefingAtNewGame() {
  try {
    return localStorage.getItem(BRIEF_KEY) !== "off";
  } catch (error) {
    return true;
  }
}

// The settings dialog's checkbox for it (#briefing-at-new-game).
export function initBriefingSetting() {
  const box = document.getElementById("briefing-at-new-game");
  if (!box) return;
  box.checked = briefingAtNewGame();
  box.addEventListener("change", function () {
    try {
      if (box.checked) localStorage.removeItem(BRIEF_KEY);
      else localStorage.setItem(BRIEF_KEY, "off");
    } catch (error) {
      // Storage off: the choice lasts this visit only.
    }
  });
}

// Mixed into the play panel (panel.js): `this` is the Play.
export const scenarioMethods = {
  // Under the prompt: one line per side (its points now, where they come from, its lead or
  // gap), then the turns left; a tap opens the briefing, which says which objectives are
  // whose. Not during a preview: the fight's Commit stays close.
  standingBox() {
    const lines = (this.view && this.view.standing) || [];
    if (!lines.length || this.pending || this.past) return null;
    const node = this.button("", () => this.openScenario(false), {
      id: "standing",
      class: "standing",
      title: this.t("ui.standing_open"),
    });
    lines.forEach((line) => {
      const side = line.params && line.params.side;
      const row = el("span", {
        class: "standing-line",
        "data-key": line.key,
        "data-side": side || "",
        text: this.label(line),
      });
      if (side) row.prepend(el("span", { class: "chip", style: this.sideStyle(side) }));
      node.appendChild(row);
    });
    return node;
  },

  // The briefing: asked of the core (the game in play, if any), drawn in #briefing-dialog.
  // `begin`: opened at New game, its button says Begin.
  openScenario(begin) {
    return this.engine.call("briefing", {}).then((brief) => {
      this.drawBriefing(brief, begin);
      return brief;
    }, this.onError);
  },

  drawBriefing(brief, begin) {
    const dialog = document.getElementById("briefing-dialog");
    const body = document.getElementById("briefing-body");
    const close = document.getElementById("briefing-close");
    if (!dialog || !body || !close) return;
    const names = this.names();
    const nodes = [];
    const description = this.i18n.pick(brief.description);
    if (description) {
      nodes.push(el("p", { class: "brief-description", text: description }));
    }
    nodes.push(el("h3", { text: this.t("ui.brief_sides") }));
    nodes.push(
      el(
        "ul",
        { class: "brief-sides" },
        (brief.sides || []).map((side, i) =>
          el("li", { "data-side": side }, [
            el("span", { class: "chip", style: this.sideStyle(side) }),
            el("span", {
              text: i === 0 ? this.t("ui.brief_first", { side: side }) : names.side(side) || side,
            }),
          ]),
        ),
      ),
    );
    if (brief.turns) {
      nodes.push(
        el("p", { class: "brief-turns", text: this.t("ui.brief_turns", { turns: brief.turns }) }),
      );
    }
    nodes.push.apply(nodes, this.briefObjectives(brief.objectives || []));
    nodes.push(el("h3", { text: this.t("ui.brief_victory") }));
    nodes.push(
      el(
        "ul",
        { class: "brief-victory" },
        (brief.victory || []).map((c) => this.briefLine(this.label(c), c.flags || [], c.key)),
      ),
    );
    nodes.push.apply(nodes, this.briefTables(brief.tables || []));
    document.getElementById("briefing-title").textContent = this.i18n.pick(brief.title) || "";
    body.replaceChildren.apply(body, nodes);
    close.textContent = this.t(begin ? "ui.brief_begin" : "ui.close");
    close.classList.toggle("primary", Boolean(begin));
    dialog.dataset.begin = begin ? "1" : "";
    if (!dialog.open) dialog.showModal();
    close.focus({ preventScroll: true });
    body.scrollTop = 0;
  },

  // The objectives, each with the side holding it (none yet: dashed): the briefing's lines.
  briefObjectives(objectives) {
    if (!objectives.length) return [];
    const nodes = [];
    nodes.push(el("h3", { text: this.t("ui.brief_objectives") }));
    nodes.push(el("p", { class: "hint", text: this.t("ui.objective_sign") }));
    nodes.push(
      el(
        "ul",
        { class: "brief-objectives" },
        objectives.map((o) =>
          el("li", { "data-objective": o.at, "data-holder": o.holder || "" }, [
            el("span", {
              class: "chip" + (o.holder ? "" : " nobody"),
              style: o.holder ? this.sideStyle(o.holder) : "",
            }),
            el("span", {
              text: this.t("ui.brief_objective", { at: o.at, count: o.points, side: o.holder }),
            }),
          ]),
        ),
      ),
    );
    return nodes;
  },

  // The tables the game uses, each a button that opens it, marked where Muster assumed a
  // value or the scenario overrides one.
  briefTables(tables) {
    const nodes = [];
    nodes.push(el("h3", { text: this.t("ui.brief_tables") }));
    nodes.push(el("p", { class: "hint", text: this.t("ui.brief_tables_hint") }));
    nodes.push(
      el(
        "ul",
        { class: "brief-tables" },
        tables.map((table) => {
          const marks = table.marks || {};
          const said = [];
          if (marks.standin) said.push(this.t("ui.brief_standin"));
          if (marks.default) said.push(this.t("ui.brief_defaults", { count: marks.default }));
          if (marks.override) said.push(this.t("ui.brief_overrides", { count: marks.override }));
          const open = this.button("", () => this.openRules(table.id), {
            class: "brief-table",
            "data-table": table.id,
            "data-marks": Object.keys(marks).join(" "),
          });
          open.append(
            el("span", { class: "brief-table-title", text: this.label(table.title) }),
            el("span", {
              class: "brief-table-marks" + (said.length ? " assumed" : ""),
              text: said.length ? said.join(" · ") : this.t("ui.brief_as_given"),
            }),
          );
          return el("li", {}, [open]);
        }),
      ),
    );
    return nodes;
  },

  // A victory condition, with Muster's mark where it is Muster's own or the scenario's.
  briefLine(text, flags, key) {
    const nodes = [el("span", { text: text })];
    if (flags.indexOf("default") >= 0) {
      nodes.push(el("span", { class: "brief-mark", text: this.t("ui.brief_assumed") }));
    }
    if (flags.indexOf("override") >= 0) {
      nodes.push(el("span", { class: "brief-mark", text: this.t("ui.rules_mark_override") }));
    }
    return el("li", { "data-key": key, "data-flags": flags.join(" ") }, nodes);
  },
};
