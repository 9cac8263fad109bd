// Muster's own rules worker: a second worker booted the same way as the one that answers the
// screen (engine.js, worker.js, pyboot.js: from the same snapshot), started the first time a
// game needs Muster. It gets the game (the whole save once, then the new actions) and answers
// `advise`, so the map, the previews and the rules stay answered while Muster thinks. Which sides Muster plays, and how strongly,
// is the game's option `muster` (side id to level), kept in every save.
import { Engine } from "./engine.js";

// The choice made at New game, remembered in this browser per scenario: side id to level.
const CHOICE_KEY = "muster.players";
// Muster's dice rolled at the table by the player (a setting): "table", else digital.
const DICE_KEY = "muster.dice";
// The most a decision may take, in ms: the search stops deepening there.
export const BUDGET_MS = 1500;
// Muster's own seed (the core varies its stream by turn and position: `opponent.think`).
const MUSTER_SEED = 1;

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch (error) {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch (error) {
    // No storage: the choice lasts this visit only.
  }
}

// The sides Muster plays in the scenario's next game, as chosen last: {side: level}.
export function chosenSides(scenarioId) {
  try {
    const all = JSON.parse(read(CHOICE_KEY) || "{}");
    const mine = all && typeof all === "object" ? all[scenarioId] : null;
    return mine && typeof mine === "object" ? Object.assign({}, mine) : {};
  } catch (error) {
    return {};
  }
}

export function chooseSides(scenarioId, sides) {
  let all = {};
  try {
    all = JSON.parse(read(CHOICE_KEY) || "{}") || {};
  } catch (error) {
    all = {};
  }
  all[scenarioId] = sides;
  write(CHOICE_KEY, JSON.stringify(all));
}

// True when the player rolls Muster's dice at the table.
export function diceAtTable() {
  return read(DICE_KEY) === "table";
}

export function setDiceAtTable(yes) {
  write(DICE_KEY, yes ? "table" : null);
}

// A recorded action as it is taken again (the core's `_replayable`): a digital roll rolls the
// game's seeded stream again, one entered at the table gives its value.
function replayable(action) {
  if (action && action.type === "roll") {
    return action.how === "digital" ? { type: "roll" } : { type: "roll", value: action.value };
  }
  return action;
}

// Muster's worker keeps the game loaded between its decisions and is sent only the actions
// taken since (`act`, one by one): a decision costs the same late in a game as early. The
// whole save is sent again (`load_save`, a replay) when the game is another, an action was
// taken back, or the state reached differs from the save's (by its hash).
export class MusterWorker {
  constructor(boot) {
    this.boot = boot;
    this.engine = null;
    this.loaded = null; // the game in the worker: {game, actions: [action as text]}
    this.loads = 0; // how many times the whole save was sent (the tests read it)
  }

  start() {
    if (!this.engine) this.engine = new Engine(undefined, this.boot);
    return this.engine.ready;
  }

  // The game (a save) put in Muster's worker, as `side` sees it: the view of that side.
  load(save, side) {
    return this.start().then(() => this.sync(save, side));
  }

  sync(save, side) {
    const game = JSON.stringify([save.system, save.seed, save.options, save.scenario]);
    const actions = save.actions.map((a) => JSON.stringify(a));
    const had = this.loaded;
    const ahead =
      had &&
      had.game === game &&
      had.actions.length <= actions.length &&
      had.actions.every((a, i) => a === actions[i]);
    if (!ahead) return this.loadWhole(save, side, game, actions);
    this.loaded = null; // until the new actions are in
    let chain = Promise.resolve(null);
    save.actions.slice(had.actions.length).forEach((action) => {
      const again = replayable(action);
      chain = chain.then(() => this.engine.call("act", { action: again, viewer: side, log: 0 }));
    });
    return chain
      .then(() => this.engine.call("save", {}))
      .then(
        (now) => {
          if (now.hash !== save.hash) return this.loadWhole(save, side, game, actions);
          this.loaded = { game: game, actions: actions };
          return this.engine.call("game_view", { viewer: side, log: 0 });
        },
        () => this.loadWhole(save, side, game, actions),
      );
  }

  loadWhole(save, side, game, actions) {
    this.loaded = null;
    this.loads += 1;
    document.documentElement.dataset.musterLoads = String(this.loads);
    return this.engine.call("load_save", { save: save, viewer: side }).then((answer) => {
      this.loaded = { game: game, actions: actions };
      return answer.view;
    });
  }

  // What Muster would do for `side` at `level` in the game loaded last. Its random stream is
  // its own (never the game's): the core draws it from this seed, the turn and the positions
  // the side has seen, so the same position gives the same decision after a reload.
  advise(side, level) {
    return this.engine.call("advise", {
      viewer: side,
      level: level,
      seed: MUSTER_SEED,
      budget_ms: BUDGET_MS,
    });
  }
}
