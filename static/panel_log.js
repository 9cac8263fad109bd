// The log as a history: newest first, a fight's modifiers under it, each entry a way to see
// the map as it was then; and the whole log as text in the language on screen. Methods of the
// play panel (panel.js).
import { el } from "./panels.js";

// How many log lines a view holds; the text export asks for all of them.
const LOG_ALL = 100000;

export const logMethods = {
  // ---- the log -----------------------------------------------------------------------------

  // Newest first; a fight's modifiers under it; tap an entry to see the map as it was then.
  renderLog() {
    const view = this.view;
    const lines = view.log || [];
    const at = view.log_at || [];
    const groups = [];
    lines.forEach((event, i) => {
      if (isSubLine(event) && groups.length) {
        groups[groups.length - 1].lines.push(event);
      } else {
        groups.push({ lines: [event], at: at[i] });
      }
    });
    const items = groups.reverse().map((group) => {
      const head = group.lines[0];
      const text = this.label(head);
      const entry =
        group.at === undefined
          ? el("span", { class: "log-text", text: text })
          : this.button(text, () => this.lookBack(group.at), {
              class: "log-entry",
              "data-at": String(group.at),
            });
      const li = el("li", {}, [entry]);
      if (group.lines.length > 1) {
        li.appendChild(
          el(
            "ul",
            { class: "log-modifiers" },
            group.lines.slice(1).map((m) => el("li", { text: this.label(m) })),
          ),
        );
      }
      return li;
    });
    this.logRoot.replaceChildren(
      el("div", { class: "log-head" }, [
        el("h2", { class: "log-title", text: this.t("ui.log") }),
        this.button(this.t("ui.export_log"), () => this.exportLog(), { id: "export-log" }),
      ]),
      el("ol", { class: "log", reversed: "reversed" }, items),
    );
  },

  // The whole log as text in the language on screen, as a file.
  exportLog() {
    return this.engine.call("game_view", this.params({ log: LOG_ALL })).then((view) => {
      const scenario = this.getScenario() || {};
      const out = [scenario.title || "", ""];
      (view.log || []).forEach((event) => {
        out.push((isSubLine(event) ? "    " : "") + this.label(event));
      });
      const blob = new Blob([out.join("\n") + "\n"], { type: "text/plain;charset=utf-8" });
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = (scenario.id || "game") + ".log.txt";
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
      return out;
    }, this.onError);
  },
};

// A modifier of a fight is listed under the fight's line (docs/play-view.md: a log key that
// ends in "modifier").
function isSubLine(event) {
  return /modifier$/.test(event.key || "");
}
