// The owner's combat results table (the game option "crt"): imported from a file, checked by
// the core, kept for the next new game; the table in use said plainly. Methods of the play
// panel (panel.js), offered when the core lists the option for the scenario's rules.
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
    this.crtNote = this.t("ui.crt_forgotten");
    this.render();
  },

  // Which combat results table is in use: a stand-in is said plainly.
  crtLabel(crt) {
    return el("p", {
      class: "crt-label" + (crt.stand_in ? " stand-in" : ""),
      "data-stand-in": String(Boolean(crt.stand_in)),
      text: crt.stand_in
        ? this.t("ui.crt_stand_in")
        : this.t("ui.crt_own", { name: crt.name || "" }),
    });
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
      el("p", {
        class: "hint crt-next",
        text: own
          ? this.t("ui.crt_next_own", { name: own.name || "" })
          : this.t("ui.crt_next_stand_in"),
      }),
      this.button(this.t("ui.crt_import"), () => input.click(), { id: "crt-import" }),
      input,
    ];
    if (own) {
      nodes.push(
        this.button(this.t("ui.crt_forget"), () => this.forgetCrt(), { id: "crt-forget" }),
      );
    }
    if (this.crtNote) nodes.push(el("p", { class: "hint", text: this.crtNote }));
    return el("div", { class: "crt-tools" }, nodes);
  },
};
