// Muster on the play panel (panel.js): the sides it plays, chosen at New game and kept with
// the game (its option `muster`); its turn, one action at a time, each marked on the map with
// a short pause the player may skip; undo that takes back its reply with the player's move;
// and the advisor, "What would Muster do?", on a player's own turn. Muster thinks in a worker
// of its own (muster.js); what it does is what `advise` answers, taken with `act` as any
// action: nothing here decides a rule.
import { el } from "./panels.js";
import { chosenSides, chooseSides, diceAtTable } from "./muster.js";

// How long each of Muster's actions stays marked on the map before it is taken, in ms.
const PAUSE_MS = 900;
const FALLBACK_LEVELS = [
  { level: 1, key: "level.muster_1", default: false },
  { level: 2, key: "level.muster_2", default: true },
  { level: 3, key: "level.muster_3", default: false },
];

// An action as text whatever the order of its keys, to find it among the view's items.
function canonical(value) {
  if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
  if (value && typeof value === "object") {
    return (
      "{" +
      Object.keys(value)
        .sort()
        .map((k) => JSON.stringify(k) + ":" + canonical(value[k]))
        .join(",") +
      "}"
    );
  }
  return JSON.stringify(value);
}

function itemOf(view, action) {
  const wanted = canonical(action);
  for (const choice of (view && view.choices) || []) {
    for (const item of choice.items) {
      if (canonical(item.action) === wanted) return item;
    }
  }
  return null;
}

export const musterMethods = {
  levels() {
    const info = this.engine.info;
    return (info && info.levels) || FALLBACK_LEVELS;
  },

  levelKey(level) {
    const found = this.levels().find((l) => l.level === level);
    return found ? found.key : "level.muster_" + level;
  },

  // The sides Muster plays in the game on screen: {side: level}.
  musterSides() {
    return this.muster || {};
  },

  hasMuster() {
    return Object.keys(this.musterSides()).length > 0;
  },

  // The side the screen is for when Muster plays: the first side it does not play.
  humanSide() {
    const sides = ((this.getScenario() || {}).sides || []).map((s) => s.id);
    return sides.find((s) => !(s in this.musterSides())) || null;
  },

  // True while Muster decides (a die of its own rolled at the table is the player's). A
  // chance point of no side (Valmont's cup draw) is drawn by the app too when Muster plays,
  // without waiting for a tap, unless the player rolls Muster's dice at the table.
  musterDeciding() {
    return !this.past && this.musterTurnIn(this.view);
  },

  musterTurnIn(view) {
    if (!view || view.result || !this.hasMuster()) return false;
    const noSide = !view.decider && Boolean(view.chance);
    if (!noSide && !(view.decider in this.musterSides())) return false;
    return !(view.chance && !view.private && diceAtTable());
  },

  // ---- New game: who plays each side -----------------------------------------------------

  chosenSides() {
    const scenario = this.getScenario() || {};
    const sides = (scenario.sides || []).map((s) => s.id);
    const kept = chosenSides(scenario.id);
    const out = {};
    Object.keys(kept).forEach((side) => {
      if (sides.indexOf(side) >= 0 && [1, 2, 3].indexOf(kept[side]) >= 0) out[side] = kept[side];
    });
    return out;
  },

  // Who plays each side: on the start panel the choice for New game; in a game, under the
  // dock, the game's own players (its option `muster`), changed at once (changeSides) and
  // remembered for the next New game too.
  playersBox() {
    const scenario = this.getScenario();
    if (!scenario || !(scenario.sides || []).length) return null;
    const inGame = Boolean(this.view);
    const chosen = inGame ? this.musterSides() : this.chosenSides();
    const rows = scenario.sides.map((side) => {
      const id = "players-" + side.id;
      const select = el("select", { id: id, class: "player-choice", "data-side": side.id }, [
        el("option", { value: "", text: this.t("ui.muster_player") }),
      ]);
      this.levels().forEach((l) => {
        select.appendChild(el("option", { value: String(l.level), text: this.t(l.key) }));
      });
      select.value = chosen[side.id] ? String(chosen[side.id]) : "";
      select.addEventListener("change", () => {
        // In a game, from the sides asked for last (a change still being put in play counts).
        const base = inGame ? this.sidesWanted || this.musterSides() : this.chosenSides();
        const now = Object.assign({}, base);
        if (select.value) now[side.id] = Number(select.value);
        else delete now[side.id];
        chooseSides(scenario.id, now);
        if (inGame) {
          this.sidesWanted = now;
          this.changeSides(now);
        }
      });
      return el("div", { class: "player-row" }, [
        el("label", { for: id, text: this.t("ui.muster_side", { side: side.id }) }),
        select,
      ]);
    });
    // A heading under the dock's prompt (h2) in a game; the panel's first one before a game.
    const head = [
      el(inGame ? "h3" : "h2", { class: "players-title", text: this.t("ui.muster_players") }),
    ];
    if (inGame) head.push(el("p", { class: "hint", text: this.t("ui.muster_players_now") }));
    const kind = inGame ? "players extras" : "players"; // in a game, set out as the facts are
    return el("section", { class: kind, id: "players" }, head.concat(rows));
  },

  // Hand sides to Muster, or take them back, in the game on screen: its save put back in
  // play with the option `muster` changed (not an action: undo does not take it back). With
  // hidden blocks and no Muster left, the tablet goes behind the privacy screen.
  changeSides(sides) {
    if (this.busy) {
      // Another change (or an action) is under way: this one follows it, never dropped.
      clearTimeout(this.sidesTimer);
      this.sidesTimer = setTimeout(() => this.changeSides(sides), 150);
      return Promise.resolve(null);
    }
    this.stopMuster();
    this.busy = true;
    const muster = Object.keys(sides).length ? Object.assign({}, sides) : null;
    const ids = ((this.getScenario() || {}).sides || []).map((s) => s.id);
    const human = ids.find((s) => !(s in (muster || {})));
    return this.engine
      .call("save", {})
      .then((save) => {
        const options = Object.assign({}, save.options);
        if (muster) options.muster = muster;
        else delete options.muster;
        const params = { save: Object.assign({}, save, { options: options }) };
        if (muster && human) params.viewer = human;
        return this.engine.call("load_save", params);
      })
      .then(
        (answer) => {
          this.busy = false;
          if (this.sidesWanted === sides) this.sidesWanted = null;
          this.muster = muster;
          this.musterStopped = false;
          this.lastActor = null;
          if (answer.view.private && !muster) this.view = null; // behind the privacy screen
          return this.show(answer.view);
        },
        (error) => {
          this.busy = false;
          this.onError(error);
          this.render();
        },
      );
  },

  // ---- Muster's turn -----------------------------------------------------------------------

  // A new game's briefing (`opened`: it is on screen, or failed to open): Muster begins once
  // the player has read it and tapped Begin, so that its first moves are seen as they are
  // made, not behind it. Until then `briefingDue` holds it (musterNext).
  awaitBriefing(opened) {
    const go = () => {
      this.briefingDue = false;
      this.musterNext();
    };
    opened.then(() => {
      const brief = document.getElementById("briefing-dialog");
      if (brief && brief.open) brief.addEventListener("close", go, { once: true });
      else go();
    });
  },

  // After each view: if Muster decides now, it takes its next action (one at a time).
  musterNext() {
    if (!this.musterDeciding() || this.musterBusy || this.musterStopped) return;
    if (this.briefingDue) return; // a new game's briefing is read first (awaitBriefing)
    const run = (this.musterRun = (this.musterRun || 0) + 1);
    const side = this.view.decider;
    const level = this.musterSides()[side];
    this.musterBusy = true;
    this.musterMark = null;
    const stale = () => run !== this.musterRun;
    const done = () => {
      if (!stale()) this.musterBusy = false;
    };
    this.render();
    // A die or a draw is rolled digitally: nothing to ask Muster's worker.
    const asked = this.view.chance
      ? Promise.resolve({ chance: this.view.chance })
      : this.musterSeen(side);
    asked
      .then((seen) => {
        if (stale()) return null;
        if (seen.chance) return { action: { type: "roll" }, item: null };
        return this.musterWorker.advise(side, level).then((answer) => ({
          action: answer.action,
          item: itemOf(seen, answer.action),
        }));
      })
      .then((chosen) => {
        if (!chosen || stale()) return null;
        this.musterMark = this.markOf(chosen.item);
        this.lightNow();
        this.render();
        return this.pause().then(() => chosen);
      })
      .then((chosen) => {
        if (!chosen || stale()) return null;
        return this.engine.call("act", this.params({ action: chosen.action }));
      })
      .then(
        (view) => {
          // An action taken as Stop was tapped is shown: the game has it.
          if (view && stale() && this.musterStopped && this.musterRun === this.stoppedRun) {
            this.show(view);
            return;
          }
          if (!view || stale()) return;
          done();
          this.musterMark = null;
          this.show(view);
        },
        (error) => {
          if (stale()) return;
          done();
          this.musterMark = null;
          this.musterStopped = true;
          this.onError(error);
          this.render();
        },
      );
  },

  // The game as `side` sees it in Muster's worker, brought up to the game on screen.
  musterSeen(side) {
    return this.engine.call("save", {}).then((save) => this.musterWorker.load(save, side));
  },

  // What the map marks of Muster's action: its place, and its unit where nothing is hidden.
  markOf(item) {
    if (!item) return null;
    const hidden = this.view && this.view.private;
    return {
      places: item.at ? [item.at] : [],
      units: item.unit && !hidden ? [item.unit] : [],
      label: hidden ? null : { key: item.key, params: item.params },
    };
  },

  // The pause while an action of Muster's is marked; "Play now" ends it, and the rest of the
  // turn's pauses too.
  pause() {
    if (this.hurry) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, PAUSE_MS);
      this.endPause = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  },

  playNow() {
    this.hurry = true;
    if (this.endPause) this.endPause();
    this.endPause = null;
  },

  // Stop whatever Muster was doing (a new game, a game loaded, an undo).
  stopMuster() {
    this.musterRun = (this.musterRun || 0) + 1;
    this.musterBusy = false;
    this.musterMark = null;
    this.hurry = false;
    if (this.endPause) this.endPause();
    this.endPause = null;
  },

  // The dock while Muster decides: that it thinks, what it does, and "Play now".
  musterBox() {
    const side = this.view.decider;
    const level = this.musterSides()[side];
    const mark = this.musterMark;
    const nodes = [
      el("p", {
        class: "muster-status",
        id: "muster-status",
        text: !side
          ? this.t("ui.muster_draws")
          : mark
            ? mark.label
              ? this.t("ui.muster_does", { action: this.label(mark.label) })
              : this.t("ui.muster_acts", { side: side })
            : this.t("ui.muster_thinking", { side: side, level: this.t(this.levelKey(level)) }),
      }),
    ];
    const buttons = [];
    if (this.musterStopped && !this.musterBusy) {
      buttons.push(
        this.button(this.t("ui.muster_again"), () => this.musterAgain(), {
          id: "muster-again",
          class: "primary",
        }),
      );
    } else {
      if (!this.hurry) {
        buttons.push(
          this.button(this.t("ui.muster_play_now"), () => this.playNow(), { id: "play-now" }),
        );
      }
      // Stop: Muster waits (its action not taken) until asked again.
      buttons.push(
        this.button(this.t("ui.muster_stop"), () => this.stopTurn(), { id: "muster-stop" }),
      );
    }
    nodes.push(el("div", { class: "actions" }, buttons));
    return el("div", { class: "muster-turn", id: "muster-turn", "aria-live": "polite" }, nodes);
  },

  stopTurn() {
    this.stopMuster();
    this.stoppedRun = this.musterRun;
    this.musterStopped = true;
    this.render();
  },

  musterAgain() {
    this.musterStopped = false;
    this.musterNext();
  },

  // Undo with Muster: take back until a player decides again, so Muster's reply goes with
  // the player's move.
  undoMuster() {
    if (!this.hasMuster()) return this.send("undo");
    if (this.busy) return Promise.resolve(null);
    this.stopMuster();
    this.musterStopped = false;
    this.busy = true;
    const step = () =>
      this.engine.call("undo", this.params()).then((view) => {
        const again = this.musterTurnIn(view) && view.can_undo;
        return again ? step() : view;
      });
    return step().then(
      (view) => {
        this.busy = false;
        this.hurry = false;
        return this.show(view);
      },
      (error) => {
        this.busy = false;
        this.onError(error);
        return this.engine.call("game_view", this.params()).then((view) => this.show(view));
      },
    );
  },

  // ---- the advisor -------------------------------------------------------------------------

  // "What would Muster do?" on a player's own turn: the action it proposes, why, lit on the
  // map. It never plays: the player takes the proposed action's button as usual.
  askAdvice() {
    const view = this.view;
    const side = view.decider;
    const levels = this.levels();
    const opponent = Object.keys(this.musterSides()).map((s) => this.musterSides()[s])[0];
    const level = opponent || (levels.find((l) => l.default) || levels[0]).level;
    this.advice = { side: side, waiting: true };
    this.render();
    const asked = this.view;
    return this.musterSeen(side)
      .then(() => this.musterWorker.advise(side, level))
      .then(
        (answer) => {
          if (this.view !== asked) return;
          const item = itemOf(this.view, answer.action);
          this.advice = { side: side, answer: answer, item: item };
          if (item) {
            this.board.light({
              places: item.at ? [item.at] : [],
              units: item.unit ? [item.unit] : [],
              selected: item.unit || null,
            });
          }
          this.render();
        },
        (error) => {
          this.advice = null;
          this.onError(error);
          this.render();
        },
      );
  },

  closeAdvice() {
    this.advice = null;
    this.lightNow();
    this.render();
  },

  adviceButton() {
    return this.button(this.t("ui.muster_advise"), () => this.askAdvice(), {
      id: "advise",
      class: "advise",
    });
  },

  adviceBox() {
    const advice = this.advice;
    if (advice.waiting) {
      return el("div", { class: "advice", id: "advice", "aria-live": "polite" }, [
        el("p", { class: "muster-status", text: this.t("ui.muster_advice_thinking") }),
      ]);
    }
    const item = advice.item;
    const nodes = [
      el("h3", {
        text: this.t("ui.muster_would", {
          action: item ? this.label(item) : this.t("ui.muster_advice_none"),
        }),
      }),
    ];
    const why = advice.answer.why || [];
    if (why.length) {
      nodes.push(
        el(
          "ul",
          { class: "advice-why" },
          why.map((w) => el("li", { text: this.label(w) })),
        ),
      );
    }
    nodes.push(
      el("div", { class: "actions" }, [
        item ? this.itemButton(item) : null,
        this.button(this.t("ui.close"), () => this.closeAdvice(), { id: "advice-close" }),
      ]),
    );
    return el("div", { class: "advice", id: "advice", "aria-live": "polite" }, nodes);
  },
};
