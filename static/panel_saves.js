// A game's save, for the play panel (panel.js): downloaded as a file, put in play (the core
// replays it, or refuses it and the game on screen is kept), and opened once the app has
// drawn its map. The saved games' list is saved.js; where a game is kept, games.js.
import { downloadSave, newSlot } from "./games.js";

export const saveMethods = {
  download() {
    return this.engine.call("save", {}).then((save) => {
      downloadSave(save);
      this.lastSave = save;
    }, this.onError);
  },

  // Put a save in play (the core replays it, or refuses it and the game is kept): in `slot`
  // when resumed from the saved games, else in a new one.
  load(save, slot) {
    // Against Muster (the game's option) the screen is the player's side.
    const muster = (save && save.options && save.options.muster) || {};
    const sides = ((save && save.scenario && save.scenario.sides) || []).map((s) => s.id);
    const human = sides.find((s) => !(s in muster));
    const params = { save: save };
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
      return answer.scenario;
    });
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
