// The owner's combat results table (the game option "crt"): imported from a file, checked by
// the core, kept for the next new game; the table in use said plainly. Methods of the play
// panel (panel.js), offered when the core lists the option for the scenario's rules. A scenario
// may hold its own table (overrides.crt): new games use it unless a table was imported here,
// which is given at New game and wins (docs/hex-hexside.md).
import { el } from "./panels.js";

// The owner's table, kept in this browser for new games.
const OWN_CRT = "muster.crt.hex-hexside";

export const crtMethods = {
  ownCrt() {
    try {
      const text = localStorage.getItem(OWN_CRT);
      return text ? JSON.parse(text) : null;
    } catch (error) {
      return null;
    }
  },

  importCrt(file) {
    return this.readJsonFile(file, "crt")
      .then((crt) =>
        this.engine.call("check_crt", { crt: crt }).then((info) => {
          try {
            localStorage.setItem(OWN_CRT, JSON.stringify(crt));
          } catch (error) {
            this.onError({
              key: "error.storage",
              params: { detail: String(error.message || error) },
            });
            return null;
          }
          this.crtNote = this.t("ui.crt_imported", { name: info.name });
          this.render();
          return info;
        }),
      )
      .catch(this.onError);
  },

  forgetCrt() {
    try {
      localStorage.removeItem(OWN_CRT);
    } catch (error) {
      // Nothing stored, or storage closed: the stand-in is used either way.
    }
    this.crtNote = this.t(this.scenarioCrt() ? "ui.crt_forgotten_scenario" : "ui.crt_forgotten");
    this.render();
  },

  // The loaded scenario's own table (overrides.crt), or null.
  scenarioCrt() {
    const scenario = (this.getScenario && this.getScenario()) || {};
    const overrides = scenario.overrides;
    const crt = overrides && typeof overrides === "object" ? overrides.crt : null;
    return crt && typeof crt === "object" ? crt : null;
  },

  // Which combat results table is in use: a stand-in is said plainly, and a scenario's own
  // table is said to be the scenario's.
  crtLabel(crt) {
    const source = crt.source || (crt.key ? "option" : "system");
    let text;
    if (crt.stand_in) text = this.t("ui.crt_stand_in");
    else if (source === "scenario") {
      text = crt.name
        ? this.t("ui.crt_scenario", { name: crt.name })
        : this.t("ui.crt_scenario_unnamed");
    } else text = this.t("ui.crt_own", { name: crt.name || "" });
    return el("p", {
      class: "crt-label" + (crt.stand_in ? " stand-in" : ""),
      "data-stand-in": String(Boolean(crt.stand_in)),
      "data-source": source,
      text: text,
    });
  },

  // What the next new game plays with: an imported table (it wins), the scenario's, the stand-in.
  crtNext(own) {
    const scenario = this.scenarioCrt();
    if (own && scenario) return this.t("ui.crt_next_own_over_scenario", { name: own.name || "" });
    if (own) return this.t("ui.crt_next_own", { name: own.name || "" });
    if (scenario) return this.t("ui.crt_next_scenario");
    return this.t("ui.crt_next_stand_in");
  },

  crtTools() {
    const own = this.ownCrt();
    const input = el("input", { type: "file", accept: ".json,application/json", id: "crt-file" });
    input.hidden = true;
    input.addEventListener("change", () => {
      if (input.files && input.files[0]) this.importCrt(input.files[0]);
      input.value = "";
    });
    const nodes = [
      el("p", { class: "hint crt-next", text: this.crtNext(own) }),
      this.button(this.t("ui.crt_import"), () => input.click(), { id: "crt-import" }),
      input,
    ];
    if (own) {
      const forget = this.scenarioCrt() ? "ui.crt_forget_scenario" : "ui.crt_forget";
      nodes.push(this.button(this.t(forget), () => this.forgetCrt(), { id: "crt-forget" }));
    }
    if (this.crtNote) nodes.push(el("p", { class: "hint", text: this.crtNote }));
    return el("div", { class: "crt-tools" }, nodes);
  },
};
