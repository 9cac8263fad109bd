// The scenario editor's place in the app (static/editor/, loaded when first opened): shown in
// place of the play screen or put away, the address saying which for a reload, and the host
// the editor is given: the rules, the words, a question, a message, the scenario on screen,
// and the app's way to play a draft.
import { ask } from "./saved.js";

// opts: root (the editor's element), engine, i18n, play(scenario) (the app plays a draft),
// message(text, kind), errorText(error), current() (the scenario file on screen).
// Returns {open, close, refreshText}.
export function editorShell(opts) {
  let view = null;
  const host = {
    root: opts.root,
    engine: opts.engine,
    i18n: opts.i18n,
    play: opts.play,
    ask: function (question, okLabel, lines) {
      return ask(question, lines || [], okLabel);
    },
    message: opts.message,
    close: close,
    current: opts.current,
  };

  // The editor in place of the play screen (or back); the address says which, for a reload.
  function setEditing(on) {
    document.body.classList.toggle("editing", on);
    opts.root.hidden = !on;
    const url = new URL(location.href);
    if (on) url.searchParams.set("editor", "1");
    else url.searchParams.delete("editor");
    history.replaceState(history.state, "", url.href);
  }

  function open() {
    setEditing(true);
    return import("./editor/editor.js").then(
      function (module) {
        view = module.openEditor(host);
        return view;
      },
      function (error) {
        setEditing(false);
        opts.message(opts.errorText(error));
      },
    );
  }

  function close() {
    setEditing(false);
  }

  return {
    open: open,
    close: close,
    refreshText: function () {
      if (view) view.refreshText();
    },
  };
}
