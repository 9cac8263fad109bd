// The scenario editor's files (methods of the editor in static/editor/editor.js): a scenario
// file opened (checked by the core first), the draft exported as a file, and Play this.
import { copy } from "./editor_common.js";

// A file name from a title: the characters file systems refuse taken out.
export function fileName(title) {
  const base = String(title || "")
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 80);
  return (base || "scenario") + ".json";
}

function download(name, text) {
  const blob = new Blob([text], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(function () {
    URL.revokeObjectURL(link.href);
  }, 10000);
}

export const fileMethods = {
  // A scenario file: checked by the core first; a refusal names the place and leaves the
  // draft as it was.
  importFile(file) {
    const refuse = (problem) => {
      this.say(this.t("editor.import_refused", { name: file.name, problem: problem }), "error");
      return false;
    };
    return this.readJson(file, "scenario").then(
      (scenario) =>
        // Through the shell's kept answers: the draft it becomes is then not checked again.
        this.askCore(scenario).then(
          (answer) => {
            if (!answer.ok) return refuse(this.problemText(answer.problem, scenario));
            return this.askReplace(this.t("editor.ask_import", { name: file.name })).then((yes) => {
              if (!yes) return false;
              this.replaceWith(scenario, "editor.step_import");
              this.sayKey("editor.imported", "info", { name: file.name });
              return true;
            });
          },
          (error) =>
            refuse(
              this.problemText({ key: error.key, params: error.params, message: error.message }),
            ),
        ),
      (error) => {
        if (error && error.key === "error.bad_file") {
          return refuse(this.t("editor.not_json", error.params));
        }
        return refuse(this.errorText(error));
      },
    );
  },

  // The draft as a file, pretty-printed; exported even when it does not load yet (work kept),
  // with a word saying so.
  exportFile() {
    if (!this.draft) return Promise.resolve();
    const scenario = this.draft.scenario;
    const name = fileName(this.i18n.pick(scenario.title));
    download(name, JSON.stringify(scenario, null, 2) + "\n");
    return this.checking.then((answer) => {
      if (this.draft.scenario !== scenario) return;
      if (answer && answer.ok === false) {
        this.sayKey("editor.exported_problem", "error", {
          name: name,
          problem: this.problemText(answer.problem),
        });
      } else this.sayKey("editor.exported", "info", { name: name });
    });
  },

  playThis() {
    if (!this.draft) return Promise.resolve(false);
    const scenario = this.draft.scenario;
    return this.engine
      .call("scenario_check", { scenario: scenario })
      .catch((error) =>
        error && error.key === "error.unknown_method" ? { ok: true } : Promise.reject(error),
      )
      .then((answer) => {
        if (!answer.ok) {
          this.sayKey("editor.play_problem", "error", {
            problem: this.problemText(answer.problem),
          });
          if (answer.problem && answer.problem.place) this.highlight(answer.problem.place);
          return false;
        }
        return this.saved().then(() => this.host.play(copy(scenario)));
      })
      .catch((error) => {
        this.say(this.errorText(error), "error");
        return false;
      });
  },
};
