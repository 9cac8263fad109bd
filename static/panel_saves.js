// A game's save, for the play panel (panel.js): downloaded as a file, put in play (the core
// replays it, or refuses it and the game on screen is kept), and opened once the app has
// drawn its map. The saved games' list is saved.js; where a game is kept, games.js.
import { downloadSave, keptHead, newSlot } from "./games.js";

// Actions replayed per request of the check after a resume: a fraction of a second in the
// browser, so an action of the player waits little behind it.
const CHECK_STEPS = 20;
// Actions of a save file replayed per request while it opens, its progress said between.
const REPLAY_STEPS = 50;

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
  // and its replay is checked afterwards), else in a new one. A file is replayed in parts,
  // `progress(done, total)` called after each; the game on screen stays until it is checked.
  // A long kept game goes in two parts (keptHead): the head, all the screen needs, and right
  // behind it the rest, which the core reads while the game is drawn; every later request
  // (an action, the autosave) comes after it, and the check starts once it is taken.
  load(save, slot, progress) {
    const params = slot ? { save: save, kept: true } : { save: save, steps: REPLAY_STEPS };
    // Against Muster (the game's option) the screen is the player's side.
    const muster = (save && save.options && save.options.muster) || {};
    const sides = ((save && save.scenario && save.scenario.sides) || []).map((s) => s.id);
    const human = sides.find((s) => !(s in muster));
    if (Object.keys(muster).length && human) params.viewer = human;
    const parts = slot ? keptHead(save, params.viewer) : null;
    const whole = Object.assign({}, params);
    let rest = null;
    let call;
    if (parts) {
      const head = Object.assign({}, params, { save: parts.head, held: parts.held });
      call = this.engine.call("load_save", head);
      rest = this.engine.call("kept_rest", parts.rest);
      rest.catch(() => null); // said below, once the game is in play
      // A head that does not fit: the whole save, as an earlier version sent it.
      call = call.catch((error) => {
        if (!error || error.key !== "error.bad_checkpoint") throw error;
        rest = null;
        return this.engine.call("load_save", whole);
      });
    } else {
      call = this.engine.call("load_save", params);
    }
    return call
      .then((answer) => this.replayed(answer, progress, params.viewer))
      .then((answer) => {
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
        if (rest) this.restTaken(rest, this.slot, whole);
        else if (answer.checking) this.checkKept(this.slot);
        return answer.scenario;
      });
  },

  // The rest of a kept game sent in two parts: once the core has it, the check; if it does
  // not fit (a record spoilt in the store), the whole save is put in play instead.
  restTaken(rest, slot, whole) {
    return rest.then(
      (answer) => {
        if (this.slot === slot && answer && answer.taken) this.checkKept(slot);
        return null;
      },
      () => {
        if (this.slot !== slot) return null;
        return this.engine.call("load_save", whole).then((answer) => {
          if (this.slot !== slot) return null;
          if (answer.checking) this.checkKept(slot);
          return this.show(answer.view);
        }, this.onError);
      },
    );
  },

  // A save file opened in parts: the next part asked for once the page has had its turn,
  // until the core answers with the game in play (or refuses the file).
  replayed(answer, progress, viewer) {
    if (!answer.replaying) return answer;
    if (progress) progress(answer.done, answer.total);
    const params = { steps: REPLAY_STEPS };
    if (viewer) params.viewer = viewer;
    return new Promise((resolve) => setTimeout(resolve, 0))
      .then(() => this.engine.call("replay_step", params))
      .then((next) => this.replayed(next, progress, viewer));
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
