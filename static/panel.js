// The play panel, one for every system: it draws the view the core sends (docs/play-view.md)
// and reports what the player touched. The prompt and its choices sit in a dock that never
// scrolls away; fights are previewed with every modifier and the odds of each result; each
// face of a die says what it does; the log is a history to look back on. Every decision is
// the core's: nothing here knows a system, a rule number or an action's meaning.
import { el, unique } from "./panels.js";
import { newSlot } from "./games.js";
import { oddsMethods } from "./panel_odds.js";
import { logMethods } from "./panel_log.js";
import { crtMethods } from "./panel_crt.js";
import { scenarioMethods, briefingAtNewGame } from "./panel_scenario.js";
import { resultMethods } from "./panel_result.js";
import { flowMethods } from "./panel_flow.js";
import { choiceMethods } from "./panel_choices.js";
import { saveMethods } from "./panel_saves.js";
import { musterMethods } from "./panel_muster.js";
import { focusKeeper, SHORTCUTS } from "./keys.js";
import { facingWord } from "./facing.js";
import { legendSections } from "./legend.js";

// A tap this soon after the panel changed is a double tap's second half: one tap, one action.
const QUIET_MS = 450;
let shown = 0; // views shown so far, on the page's root as data-shown (tests wait on it)

export class Play {
  constructor(opts) {
    this.engine = opts.engine;
    this.board = opts.board;
    this.i18n = opts.i18n;
    this.onError = opts.onError;
    this.readJsonFile = opts.readJsonFile;
    this.root = opts.root;
    this.logRoot = opts.logRoot;
    this.getScenario = opts.getScenario;
    // The app's: keep a game in its slot; ask before a new game; the saved games' list.
    this.onKeep = opts.onKeep;
    this.onShown = opts.onShown; // a new view of the game came (after an action)
    this.confirmNew = opts.confirmNew;
    this.savedPanel = opts.savedPanel;
    this.openSaved = opts.openSaved;
    this.openLegend = opts.openLegend;
    this.openRules = opts.openRules; // the rules reference, at a row: openRules(ref)
    this.musterWorker = opts.musterWorker; // Muster's own (muster.js)
    this.clear();
  }

  clear() {
    this.view = null;
    this.viewer = null;
    this.selected = null;
    this.slot = null;
    this.pending = null; // a fight being previewed: {item, answer}
    this.asking = null; // an ending that leaves something unused, asked about first
    this.picker = null; // several things one tap could mean: {title, items} or {title, units}
    this.past = null; // the map as it was after an earlier action: {at, view}
    this.covered = null; // the side the privacy screen waits for
    this.costs = null; // the selected unit's movement costs, by place
    this.busy = false;
    this.quietUntil = 0;
    this.lastSide = null;
    this.lastActor = null;
    this.stopMuster();
    this.muster = null; // the sides Muster plays: {side: level} (the game's option)
    this.musterStopped = false; // its last request failed: the player asks again
    this.advice = null; // the advisor's answer on screen
  }

  active() {
    return Boolean(this.view);
  }

  reset() {
    this.hideCurtain();
    this.clear();
    this.render();
  }

  t(key, params) {
    return this.i18n.t(key, params || {});
  }

  // ---- names: what the words of messages need from the scenario --------------------------

  // The names the i18n module asks for when it words a parameter (docs/play-view.md).
  names() {
    const self = this;
    const find = function (list, id) {
      return (list || []).find(function (x) {
        return x.id === id;
      });
    };
    return {
      unit: function (id) {
        const scenario = self.getScenario() || {};
        const unit = find(scenario.units, id);
        if (unit) return unit.name;
        const piece = self.board.pieceName(self.view, id);
        if (piece && piece.hidden) return self.t("ui.hidden_block", { locale: piece.locale });
        return piece || null;
      },
      place: function (id) {
        const map = (self.getScenario() || {}).map || {};
        const locale = find(map.locales, id);
        return locale ? locale.name : null;
      },
      side: function (id) {
        const side = find((self.getScenario() || {}).sides, id);
        return side ? side.name : null;
      },
      formation: function (id) {
        const formation = find((self.getScenario() || {}).formations, id);
        return formation ? formation.name : null;
      },
      facing: function (n) {
        return self.facingWord(n);
      },
    };
  }

  // Facing 0-11 in words: the compass point and arrow of its direction on this map.
  facingWord(n) {
    if (typeof n !== "number") return null;
    return facingWord((key, params) => this.t(key, params), this.orientation(), n);
  }

  orientation() {
    const scenario = this.getScenario();
    return (scenario && scenario.map && scenario.map.orientation) || "flat";
  }

  // ---- the rules' answers ----------------------------------------------------------------

  // What the core says of the scenario's rules: whether they play, the options a game takes,
  // and how the words of its messages are worded.
  setRules(summary) {
    this.playable = summary.playable;
    this.options = summary.options || [];
    this.markers = summary.markers || [];
    if (this.i18n.setWords) this.i18n.setWords(summary.words || {}, this.names());
  }

  takes(name) {
    return (this.options || []).indexOf(name) >= 0;
  }

  // Every request of a private game names the side looking at the screen.
  params(extra) {
    const out = Object.assign({}, extra || {});
    if (this.view && this.view.private && this.viewer) out.viewer = this.viewer;
    return out;
  }

  // Send a request that changes the game: one at a time, never twice for a double tap.
  send(method, extra) {
    if (this.busy || performance.now() < this.quietUntil) return Promise.resolve(null);
    this.busy = true;
    this.root.classList.add("busy");
    return this.engine.call(method, this.params(extra)).then(
      (view) => {
        this.busy = false;
        this.root.classList.remove("busy");
        this.quietUntil = performance.now() + QUIET_MS;
        return this.show(view);
      },
      (error) => {
        this.busy = false;
        this.root.classList.remove("busy");
        this.onError(error);
        return null;
      },
    );
  }

  act(action) {
    this.cardPassed(); // the player goes on: the result card on screen is put away
    return this.send("act", { action: action });
  }

  newGame() {
    return this.confirmNew().then((yes) => (yes ? this.start() : null));
  }

  start() {
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    const options = {};
    // A table imported in this panel is given at New game: it wins over the scenario's own
    // (overrides.crt), which the core uses when no table is given.
    const own = this.ownCrt();
    if (this.takes("crt") && own) options.crt = own;
    const muster = this.chosenSides();
    this.clear();
    const params = { seed: seed, options: options };
    if (Object.keys(muster).length) {
      options.muster = muster;
      this.muster = muster;
      // The screen is the player's: with hidden blocks, Muster's are never shown.
      if (this.humanSide()) params.viewer = this.humanSide();
    }
    return this.engine.call("new_game", params).then((view) => {
      this.slot = newSlot();
      // The briefing over the new game (Begin starts play; Muster waits for it).
      this.briefingDue = briefingAtNewGame();
      const shown = this.show(view);
      if (this.briefingDue) this.awaitBriefing(this.openScenario(true));
      return shown;
    }, this.onError);
  }

  // A new view from the core: kept, then drawn, or the tablet handed to the side that
  // decides when each side has its own screen.
  show(view) {
    // How many views the panel has shown: tests wait on it after a tap.
    const before = this.view;
    this.view = view;
    this.viewer = view.viewer;
    this.pending = null;
    this.asking = null;
    this.picker = null;
    this.past = null;
    this.advice = null;
    if (!this.musterDeciding()) this.hurry = false;
    const side = view.prompt ? view.prompt.side : null;
    // Pass-and-play: a note when another side than the last one that acted is asked now.
    const alone = view.private || this.hasMuster(); // one screen's side: no tablet to hand
    this.handover = Boolean(side && this.lastActor && side !== this.lastActor && !alone);
    if (side) this.lastActor = side;
    if (side !== this.lastSide) {
      this.selected = null; // marks never outlive a side's turn
      this.refocus = true; // and the map turns to the units that act now
    }
    this.lastSide = side;
    if (this.selected && !this.items().some((i) => i.unit === this.selected)) {
      this.selected = null;
    }
    this.costs = null;
    this.autosave();
    if (this.onShown) this.onShown(view);
    // A new private game, and every change of the side deciding, goes behind the privacy
    // screen: the side taking the tablet asks for its own view.
    // Against Muster the screen stays the player's: no privacy screen.
    const handOver = view.private && !this.hasMuster() && !view.result && view.decider;
    if (handOver && (!before || view.decider !== view.viewer)) {
      return this.handOver(view.decider);
    }
    this.draw();
    this.musterNext();
    return view;
  }

  // Keep the game in its slot after every change, so a reload or a closed tab loses nothing.
  autosave() {
    const slot = this.slot;
    const summary = this.view ? this.view.summary : null;
    if (!slot || this.engine.remote) return Promise.resolve(); // a guest keeps no game
    return this.engine
      .call("save", { checkpoint: true }) // kept with its checkpoint: it resumes at once
      .then((save) => this.onKeep(slot, save, summary), this.onError);
  }

  draw() {
    countShown();
    this.hideCurtain();
    if (!this.view) return;
    this.board.draw(this.view, this.getScenario());
    if (this.refocus) {
      const units = unique(
        this.items()
          .map((i) => i.unit)
          .filter(Boolean),
      );
      if (units.length) {
        this.board.focus(this.view, units);
        this.refocus = false;
      }
    }
    this.lightNow();
    this.markCard();
    this.render();
  }

  // ---- the privacy screen (a side's own screen) ------------------------------------------

  handOver(side) {
    if (this.ownSide) return this.reveal(this.ownSide); // two tablets: a side's own screen
    countShown();
    this.covered = side;
    this.board.clear();
    this.root.replaceChildren();
    this.logRoot.replaceChildren();
    if (!this.curtain) {
      // A modal dialog: focus stays on it, Tab never reaches the game behind, and Escape
      // does not lift it (only the button for the side whose screen it is).
      this.curtain = el("dialog", {
        class: "curtain",
        id: "curtain",
        "aria-labelledby": "curtain-title",
        "aria-describedby": "curtain-hint",
      });
      this.curtain.addEventListener("cancel", (event) => event.preventDefault());
      document.body.appendChild(this.curtain);
    }
    const go = this.button(this.t("ui.al_show", { side: side }), () => this.reveal(side), {
      id: "curtain-go",
      class: "primary",
      "data-side": side,
    });
    this.curtain.replaceChildren(
      el("h2", {
        class: "curtain-title",
        id: "curtain-title",
        text: this.t("ui.al_hand_over", { side: side }),
      }),
      el("p", { class: "hint", id: "curtain-hint", text: this.t("ui.al_privacy") }),
      go,
    );
    this.curtain.hidden = false;
    if (!this.curtain.open) this.curtain.showModal();
    go.focus();
    return this.view;
  }

  hideCurtain() {
    this.covered = null;
    if (!this.curtain) return;
    this.curtain.hidden = true;
    if (this.curtain.open) this.curtain.close();
  }

  reveal(side) {
    return this.engine.call("game_view", { viewer: side }).then((view) => {
      this.viewer = side;
      this.view = view;
      this.lastSide = view.prompt ? view.prompt.side : null;
      this.selected = null;
      this.quietUntil = performance.now() + QUIET_MS;
      this.draw();
    }, this.onError);
  }

  // ---- what a tap may act on -------------------------------------------------------------

  // Every item of every choice.
  items() {
    const out = [];
    ((this.view && this.view.choices) || []).forEach((choice, index) => {
      choice.items.forEach((item) => out.push(Object.assign({ choice: index }, item)));
    });
    return out;
  }

  // The unit whose places are lit: the one picked, or the only one that acts at places.
  current() {
    if (this.selected) return this.selected;
    const units = unique(
      this.items()
        .filter((i) => i.unit && i.at)
        .map((i) => i.unit),
    );
    const free = this.items().some((i) => i.at && !i.unit);
    return units.length === 1 && !free ? units[0] : null;
  }

  lightNow() {
    if (this.musterDeciding()) return this.board.light(this.musterMark); // Muster's action
    if (!this.view || this.past || this.view.chance) {
      this.board.light(null);
      return;
    }
    const items = this.items();
    const unit = this.current();
    let places;
    let units;
    if (unit) {
      places = items.filter((i) => i.unit === unit && i.at).map((i) => i.at);
      units = [unit];
    } else {
      places = items.filter((i) => i.at && !i.unit).map((i) => i.at);
      units = unique(items.filter((i) => i.unit).map((i) => i.unit));
    }
    this.board.light({
      places: unique(places),
      units: units,
      selected: unit,
      costs: unit ? this.costs : null,
    });
  }

  // A tap on the map during play (place, unit tapped, units there); true if play used it.
  onTap(tap) {
    if (!this.view || this.covered || this.past || this.view.chance || this.view.result) {
      return false;
    }
    if (this.musterDeciding()) return true; // Muster's turn: the map only shows
    if (this.busy || performance.now() < this.quietUntil) return true;
    const items = this.items();
    const unit = this.current();
    const place = tap.place;
    if (unit && place) {
      const here = items.filter((i) => i.unit === unit && i.at === place);
      if (here.length) return this.take(here, place);
    }
    const stack = tap.stack && tap.stack.length ? tap.stack : tap.unit ? [tap.unit] : [];
    const actors = stack.filter((u) => items.some((i) => i.unit === u));
    const atPlace = place ? items.filter((i) => !i.unit && i.at === place) : [];
    if (atPlace.length && actors.indexOf(tap.unit) < 0) return this.take(atPlace, place);
    if (actors.length > 1) {
      this.picker = { title: this.t("ui.pick_unit"), units: actors };
      this.render();
      return true;
    }
    if (actors.length === 1) {
      this.pickUnit(actors[0]);
      return true;
    }
    if (atPlace.length) return this.take(atPlace, place);
    if (this.selected) {
      this.unselect();
      return true;
    }
    return false;
  }

  // One item is taken at once; several are listed to pick from.
  take(items, place) {
    if (items.length === 1) {
      this.run(items[0]);
      return true;
    }
    this.picker = {
      title: place ? this.t("ui.pick_action_at", { place: place }) : this.t("ui.pick_action"),
      items: items,
    };
    this.render();
    return true;
  }

  run(item) {
    if (this.asksBefore(item)) return null;
    if (item.preview) return this.askPreview(item);
    return this.act(item.action);
  }

  // A unit picked (on the map, in a stack or in a list): what it may do.
  pickUnit(unit) {
    const own = this.items().filter((i) => i.unit === unit);
    this.picker = null;
    if (own.length && own.every((i) => !i.at)) {
      if (own.length === 1) {
        this.run(own[0]);
        return;
      }
      this.selected = unit;
      this.picker = { title: this.t("ui.pick_action_for", { unit: unit }), items: own };
      this.lightNow();
      this.render();
      return;
    }
    this.selected = unit;
    this.costs = null;
    this.lightNow();
    this.render();
    const moving = own.some((i) => i.at && this.view.choices[i.choice].kind === "map");
    if (!moving) return;
    // How much each lit place costs to reach: the core's answer, written on the map.
    this.engine.call("reachable", { unit: unit }).then(
      (reach) => {
        if (this.selected !== unit || !reach || !reach.hexes) return;
        const costs = {};
        Object.keys(reach.hexes).forEach((p) => {
          costs[p] = this.i18n.num
            ? this.i18n.num(reach.hexes[p].cost)
            : String(reach.hexes[p].cost);
        });
        this.costs = costs;
        this.lightNow();
      },
      () => null, // no costs on this map: the lit places say enough
    );
  }

  unselect() {
    this.selected = null;
    this.picker = null;
    this.costs = null;
    this.lightNow();
    this.render();
  }

  // ---- previews ----------------------------------------------------------------------------

  askPreview(item) {
    return this.engine.call("preview", { action: item.action }).then((answer) => {
      this.pending = { item: item, answer: answer };
      this.picker = null;
      if (item.at) this.board.light({ places: [item.at], units: item.unit ? [item.unit] : [] });
      this.render();
    }, this.onError);
  }

  cancelPreview() {
    this.pending = null;
    this.lightNow();
    this.render();
  }

  // ---- looking back ------------------------------------------------------------------------

  lookBack(at) {
    return this.engine.call("look_back", this.params({ at: at })).then((answer) => {
      this.past = { at: at, view: answer };
      this.board.draw(answer, this.getScenario());
      this.board.light(null);
      this.markCard();
      this.render();
    }, this.onError);
  }

  backToPresent() {
    this.past = null;
    this.draw();
  }

  // ---- drawing the panel -------------------------------------------------------------------

  button(text, onClick, attrs) {
    const node = el("button", Object.assign({ type: "button", text: text }, attrs || {}));
    // A double tap never takes two actions: send() refuses a second one this soon.
    node.addEventListener("click", onClick);
    return node;
  }

  label(x) {
    return x ? this.t(x.key, x.params) : "";
  }

  // Draw the panel; a keyboard player's focus survives it (keys.js).
  render() {
    const kept = focusKeeper(this);
    this.paint();
    kept();
  }

  paint() {
    const root = this.root;
    if (this.covered) {
      this.handOver(this.covered);
      return;
    }
    if (!this.view) {
      const nodes = [
        this.playable === false
          ? el("p", { class: "hint", text: this.t("ui.board_only") })
          : el("div", { class: "play-bar start-bar" }, [
              this.button(this.t("ui.new_game"), () => this.newGame(), {
                id: "new-game",
                class: "primary",
              }),
              // The scenario's briefing, to read before a game.
              this.button(this.t("ui.scenario"), () => this.openScenario(false), {
                id: "scenario-tab",
              }),
            ]),
        this.playable === false ? null : this.playersBox(),
        this.savedPanel(),
      ].filter(Boolean);
      if (this.takes("crt") && this.playable !== false) nodes.push(this.crtTools());
      root.replaceChildren.apply(root, nodes);
      this.logRoot.replaceChildren();
      return;
    }
    // The game's buttons, then the dock (it stays in view), then the fight, the facts, the log.
    const nodes = [this.gameBar(), this.dock()];
    const extras = this.extras();
    if (extras) nodes.push(extras);
    const players = this.playersBox(); // who plays each side, changed in the game
    if (players) nodes.push(players);
    root.replaceChildren.apply(root, nodes);
    this.renderLog();
    this.showAsked();
    this.fitDock();
  }

  // A new question (another prompt, or another side to act) comes into view at its top, even
  // when the finger left the panel scrolled down to reach a Commit or the log.
  showAsked() {
    const prompt = this.view && this.view.prompt;
    const asked = prompt ? JSON.stringify([prompt.key, prompt.params, prompt.side]) : "";
    if (asked === this.asked) return;
    this.asked = asked;
    const dock = this.root.querySelector("#dock");
    const scroller = this.root.closest(".panel");
    if (!dock || !scroller) return;
    dock.scrollTop = 0;
    const top =
      this.root.getBoundingClientRect().top -
      scroller.getBoundingClientRect().top +
      scroller.scrollTop;
    if (scroller.scrollTop > top) scroller.scrollTop = top;
  }

  // The dock: who acts, what is asked, and the choices; it never scrolls away.
  dock() {
    const view = this.view;
    const state = view.state || {};
    const prompt = view.prompt;
    const side = prompt ? prompt.side : null;
    const head = [
      el("span", {
        class: "turn",
        text: this.t("ui.turn", { turn: state.turn, turns: state.turns }),
      }),
    ];
    if (side) {
      head.push(
        el("span", {
          class: "side-chip",
          "data-side": side,
          style: this.sideStyle(side),
          text: this.t("ui.side_to_act", { side: side }),
        }),
      );
    }
    if (view.private && view.viewer) {
      head.push(
        el("span", {
          class: "viewer",
          "data-side": view.viewer,
          text: this.t("ui.al_viewer", { side: view.viewer }),
        }),
      );
    }
    head.push(
      el("span", { class: "spacer" }),
      this.button(
        this.t("ui.undo"),
        () => this.undoMuster(),
        Object.assign(
          { "aria-keyshortcuts": SHORTCUTS.undo },
          view.can_undo && !this.past ? { id: "undo" } : { id: "undo", disabled: "disabled" },
        ),
      ),
      this.button(
        this.t("ui.redo"),
        () => this.send("redo"),
        Object.assign(
          { "aria-keyshortcuts": SHORTCUTS.redo },
          view.can_redo && !this.past ? { id: "redo" } : { id: "redo", disabled: "disabled" },
        ),
      ),
    );
    const nodes = [el("div", { class: "dock-head" }, head)];
    if (this.past) {
      nodes.push(this.pastBox());
      return el("section", { class: "dock", id: "dock", "aria-live": "polite" }, nodes);
    }
    nodes.push(
      el("h2", {
        class: "prompt",
        id: "prompt",
        "data-phase": state.phase || "",
        text: view.result ? this.resultText(view.result) : this.label(prompt),
      }),
    );
    if (prompt && prompt.why) {
      nodes.push(el("p", { class: "why", text: this.label(prompt.why) }));
    }
    nodes.push.apply(nodes, this.underPrompt(side));
    return el("section", { class: "dock", id: "dock", "aria-live": "polite" }, nodes);
  }

  // What the dock shows under the prompt, decided here alone. A result card (what the last
  // die or fight did, until put away) takes the standing's place (the standing is also in
  // the briefing), so that Continue and the way on stay in view on a tablet; else the
  // standing. Then, when the tablet changes hands, whose turn it is; then the card; then
  // what is asked now: a fight's preview, a question, a stack's picker, a die, or the
  // choices (none once the game is over).
  underPrompt(side) {
    const view = this.view;
    const showsCard = this.cardShows();
    const nodes = [];
    const dice = view.chance && view.chance.die; // a die's faces want the room
    if (!showsCard && !dice) nodes.push(this.standingBox());
    if (this.handover && side) {
      nodes.push(
        el("p", {
          class: "handover",
          "data-side": side,
          text: this.t("ui.handover", { side: side }),
        }),
      );
    }
    if (showsCard) nodes.push(this.cardBox());
    if (this.musterDeciding()) {
      nodes.push(this.musterBox());
      return nodes.filter(Boolean);
    }
    if (this.advice) nodes.push(this.adviceBox());
    if (this.pending) nodes.push(this.previewBox(this.pending));
    else if (this.asking) nodes.push(this.askBox(this.asking));
    else if (this.picker) nodes.push(this.pickerBox(this.picker));
    else if (view.chance) nodes.push(this.chanceBox(view.chance));
    else if (!view.result) {
      nodes.push(this.choicesBox());
      if (!this.advice && view.choices && view.choices.length) nodes.push(this.adviceButton());
    }
    return nodes.filter(Boolean);
  }

  sideStyle(side) {
    const found = ((this.getScenario() || {}).sides || []).find((s) => s.id === side);
    if (!found || !found.color) return "";
    return "background:" + found.color + ";color:" + (found.text || "#111");
  }

  resultText(result) {
    return this.t("prompt.over", { winner: result.winner, points: result.points });
  }

  // A chance point: roll, or tap the face rolled at the table; each face says what it does.
  extras() {
    const view = this.view;
    const nodes = [];
    (view.facts || []).forEach((f) => nodes.push(el("p", { class: "fact", text: this.label(f) })));
    if (view.combat && view.combat.title) {
      // The fight in progress, as the core words it: its step (or a bombardment), who fights.
      nodes.push(el("h3", { class: "combat-title", text: this.label(view.combat.title) }));
      (view.combat.lines || []).forEach((line) => {
        if (line.key !== view.combat.title.key) {
          nodes.push(el("p", { class: "combat-line", text: this.label(line) }));
        }
      });
    }
    if (view.combat && view.combat.preview && !this.pending) {
      // The table in use is named once, below.
      const preview = Object.assign({}, view.combat.preview, { crt: null });
      nodes.push(el("h3", { text: this.t("ui.fight_now") }), this.previewBody(preview));
    }
    if (view.crt) nodes.push(this.crtLabel(view.crt), this.crtTools());
    return nodes.length ? el("section", { class: "extras" }, nodes) : null;
  }

  pastBox() {
    const at = this.past.at;
    return el("div", { class: "past", id: "past" }, [
      el("p", {
        class: "prompt",
        text: this.t("ui.looking_back", { at: at, moves: this.view.moves }),
      }),
      this.button(this.t("ui.back_to_game"), () => this.backToPresent(), {
        id: "back-to-game",
        class: "primary",
      }),
    ]);
  }

  // New game, save, the saved games, the legend, the log as text.
  gameBar() {
    return el("div", { class: "play-bar" }, [
      this.button(this.t("ui.new_game"), () => this.newGame(), { id: "new-game" }),
      this.button(this.t("ui.save_game"), () => this.download(), { id: "save-game" }),
      this.button(this.t("ui.saved_games"), () => this.openSaved(), { id: "saved-games" }),
      this.button(this.t("ui.scenario"), () => this.openScenario(false), { id: "scenario-tab" }),
      this.button(this.t("ui.legend"), () => this.openLegend(this.legend()), { id: "legend" }),
      this.button(this.t("ui.rules"), () => this.openRules(), { id: "rules" }),
    ]);
  }

  // The legend of the game in view: every marker its rule system declares (and any other
  // on the map now), the map's kinds, the counters' signs (legend.js).
  legend() {
    const markers = (this.markers || []).slice();
    const onMap = (this.view && this.view.markers) || {};
    Object.keys(onMap).forEach((id) => {
      onMap[id].forEach((m) => {
        if (markers.indexOf(m) < 0) markers.push(m);
      });
    });
    return legendSections((key, params) => this.t(key, params), this.getScenario(), markers);
  }
}

// The panel's methods by concern: odds and dice, the log, the owner's tables, the scenario,
// the result card, the way on, the choices, the saves.
Object.assign(
  Play.prototype,
  oddsMethods,
  logMethods,
  crtMethods,
  scenarioMethods,
  resultMethods,
  flowMethods,
  choiceMethods,
  saveMethods,
  musterMethods,
);

function countShown() {
  shown += 1;
  document.documentElement.dataset.shown = String(shown);
}
