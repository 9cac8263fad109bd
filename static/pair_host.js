// The host's side of two tablets: the host keeps the game in its own rules worker and answers
// each call of the guest's tablet with it, as for the guest's side alone. The guest names no
// viewer but its own; it may not start, load or save a game; it acts, takes back and previews
// only when its side decides; in a game of hidden blocks it asks nothing that reads the
// positions of every unit. What it is sent is what its side's own screen would show: the
// other side's hidden blocks never leave this tablet.
//
// "resync" is the guest's own call, not the engine's: its whole view again (a view that
// arrived altered, healed), or, from the last view agreed ({seq, hash}) after the link came
// back, {same: true} when that is still its view.
import { viewHash } from "./remote_engine.js";

// Methods the guest may call, and whether they take `viewer` (forced to the guest's side).
const GUEST_METHODS = {
  version: false,
  game_view: true,
  act: true,
  undo: true,
  redo: true,
  preview: false,
  rules_reference: false,
  briefing: false,
  los: false,
  hex_info: false,
  reachable: false,
  path: false,
  load_save: true, // the guest joins: the game as its side sees it, never a save given
  resync: true,
};
// Only when the guest's side decides.
const DECIDING = ["act", "undo", "redo", "preview"];
// Not in a game of hidden blocks: they read every unit's place.
const OPEN_ONLY = ["hex_info", "reachable", "path"];
const CHANGES = ["act", "undo", "redo"];

function refusal(key, params, message) {
  return { key: key, params: params || {}, message: message };
}

export class PairHost {
  // engine: the host's own (engine.js); send(text) to the guest; sides: {host, guest};
  // onChanged(): the guest changed the game (the host's screen draws it again); before: the
  // PairHost of the link lost, when this is a new pairing of the same game (the numbering of
  // the views goes on from the last agreed).
  constructor(opts) {
    this.engine = opts.engine;
    this.send = opts.send;
    this.sides = opts.sides;
    this.onChanged = opts.onChanged;
    const before = opts.before || null;
    this.seq = before ? before.seq : 0; // views sent
    this.agreed = before ? before.agreed : 0; // the last view the guest acknowledged
    this.lastHash = null; // the hash of the last view sent
    this.held = false; // the link is interrupted: the guest asks its view again when back
    this.queue = Promise.resolve();
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch (error) {
      return;
    }
    if (message.t === "ack" && typeof message.seq === "number") {
      this.agreed = Math.max(this.agreed, Math.min(message.seq, this.seq));
      document.documentElement.dataset.pairAgreed = String(this.agreed);
      return;
    }
    if (message.t !== "call") return;
    // One call at a time, in the order sent.
    this.queue = this.queue.then(() => this.answer(message)).catch(() => {});
  }

  guestView() {
    return this.engine.call("game_view", { viewer: this.sides.guest });
  }

  // A view for the guest: numbered and hashed.
  stamp(reply, view) {
    this.seq += 1;
    this.lastHash = viewHash(view);
    return Object.assign(reply, { seq: this.seq, hash: this.lastHash });
  }

  answer(message) {
    const reply = { t: "reply", id: message.id };
    return this.run(message.method, message.params || {}).then(
      (result) => {
        reply.ok = true;
        reply.result = result;
        if (result && (result.view || result.state)) this.stamp(reply, result.view || result);
        this.send(JSON.stringify(reply));
        if (CHANGES.indexOf(message.method) >= 0 && this.onChanged) this.onChanged();
      },
      (error) => {
        reply.ok = false;
        reply.error = refusal(error.key || "error.internal", error.params, error.message);
        this.send(JSON.stringify(reply));
      },
    );
  }

  run(method, params) {
    if (!(method in GUEST_METHODS)) {
      return Promise.reject(refusal("ui.pair_refused", { method: String(method) }, "refused"));
    }
    if (
      params.viewer !== undefined &&
      params.viewer !== null &&
      params.viewer !== this.sides.guest
    ) {
      return Promise.reject(refusal("ui.pair_refused", { method: method }, "another side"));
    }
    const asked = Object.assign({}, params);
    if (GUEST_METHODS[method]) asked.viewer = this.sides.guest;
    if (method === "load_save") return this.join();
    if (method === "resync") return this.resync(params);
    return this.guestView().then((view) => {
      if (OPEN_ONLY.indexOf(method) >= 0 && view.private) {
        throw refusal("ui.pair_refused", { method: method }, "hidden blocks");
      }
      if (DECIDING.indexOf(method) >= 0 && view.decider !== this.sides.guest) {
        throw refusal("ui.pair_not_yours", {}, "not the guest's side to decide");
      }
      return this.engine.call(method, asked);
    });
  }

  // What the guest's load_save is answered with: the scenario without the other side's hidden
  // units, the rules' words, and the game as the guest's side sees it.
  join() {
    return this.engine.call("save", {}).then((save) => {
      const data = save.scenario;
      return Promise.all([
        this.engine.call("scenario_check", { scenario: data }),
        this.guestView(),
      ]).then((found) => {
        const summary = found[0].summary || {};
        const view = found[1];
        const scenario = Object.assign({}, data);
        if (view.private) {
          scenario.units = (data.units || []).filter((u) => u.side === this.sides.guest);
        }
        return {
          checking: false,
          scenario: scenario,
          view: view,
          options: summary.options || [],
          words: summary.words || {},
          markers: summary.markers || [],
        };
      });
    });
  }

  // The guest's view again: whole, or {same: true} when the guest's last agreed view (its
  // hash) is still the game's.
  resync(params) {
    return this.guestView().then((view) => {
      const hash = viewHash(view);
      if (!params.whole && params.hash && params.hash === hash) {
        this.lastHash = hash;
        return { same: true };
      }
      return { view: view };
    });
  }

  // The host's screen shows a new view: the guest's, when it changed, follows (not while the
  // link is interrupted: the guest asks for it when the link is back).
  push() {
    if (this.held) return this.queue;
    this.queue = this.queue
      .then(() => this.guestView())
      .then((view) => {
        if (viewHash(view) === this.lastHash) return;
        this.send(JSON.stringify(this.stamp({ t: "view", view: view }, view)));
      })
      .catch(() => {});
    return this.queue;
  }
}
