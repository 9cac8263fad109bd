// A game's save, for the play panel (panel.js): downloaded as a file, put in play (the core
// replays it, or refuses it and the game on screen is kept), and opened once the app has
// drawn its map. The saved games' list is saved.js; where a game is kept, games.js.
import { downloadSave, newSlot } from "./games.js";

// Actions replayed per request of the check after a resume: a fraction of a second in the
// browser, so an action of the player waits little behind it.
const CHECK_STEPS = 20;

// Run `work` once the page has had its turn (a tap, a frame).
function later(work) {
  setTimeout(work, 0);
  return null;
}

export const saveMethods = {
  download() {
    return this.engine.call("save", {}).then((save) => {
      downloadSave(save);
      this.lastSave = save;
    }, this.onError);
  },

  // Put a save in play (the core replays it, or refuses it and the game is kept): in `slot`
  // when resumed from the saved games (kept here: it comes back at once from its checkpoint,
  // and its replay is checked afterwards), else in a new one.
  load(save, slot) {
    const kept = Boolean(slot);
    // Against Muster (the game's option) the screen is the player's side.
    const muster = (save && save.options && save.options.muster) || {};
    const sides = ((save && save.scenario && save.scenario.sides) || []).map((s) => s.id);
    const human = sides.find((s) => !(s in muster));
    const params = { save: save, kept: kept };
    if (Object.keys(muster).length && human) params.viewer = human;
    return this.engine.call("load_save", params).then((answer) => {
      this.clear();
      this.muster = Object.keys(muster).length ? Object.assign({}, muster) : null;
      this.setRules({
        playable: true,
        options: answer.options,
        words: answer.words,
        markers: answer.markers,
      });
      this.slot = slot || newSlot();
      this.view = answer.view;
      this.viewer = answer.view.private && !this.hasMuster() ? null : answer.view.viewer;
      this.lastSide = answer.view.prompt ? answer.view.prompt.side : null;
      this.autosave();
      if (answer.checking) this.checkKept(this.slot);
      return answer.scenario;
    });
  },

  // The replay of a game resumed from its checkpoint, a few actions at a time between the
  // player's own requests; said only if it disagrees, and the replayed game is then shown.
  checkKept(slot) {
    const step = () => {
      if (this.slot !== slot) return null;
      return this.engine.call("check_kept", this.params({ steps: CHECK_STEPS })).then((answer) => {
        if (this.slot !== slot) return null;
        if (!answer.done) return later(step);
        if (!answer.differs) return null;
        this.onError({ key: "ui.kept_replayed", params: {}, message: "replayed" });
        return this.show(answer.view);
      }, this.onError);
    };
    return later(step);
  },

  // Once the app has drawn the loaded game's map: a private game opens on the privacy screen
  // of the side to act, so the side now holding the tablet sees nothing it may not.
  opened() {
    if (this.view.private && !this.hasMuster()) {
      const summary = this.view.summary || {};
      return this.handOver(summary.side || this.view.decider);
    }
    this.draw();
    this.musterNext();
    return this.view;
  },
};
