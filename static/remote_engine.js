// The guest's engine when two tablets play one game: the same promise API as engine.js,
// await remote.call(method, params), answered by the host's rules worker over a link (a
// WebRTC data channel, pair.js). Only JSON text crosses the link. The host answers every call
// as for the guest's side alone (pair_host.js), so the other side's hidden blocks never reach
// this device.
//
// Messages, host to guest: {t: "reply", id, ok, result | error, seq, hash} (seq and hash when
// the answer is a view) and {t: "view", view, seq, hash} (the guest's view changed by the
// host's side); guest to host: {t: "call", id, method, params} and {t: "ack", seq}.
//
// A view whose hash does not match is healed: the guest asks the host for its whole view
// again ("resync") and puts it in place of its own; a call whose answer arrived altered is
// answered with the healed view. A link that was interrupted and came back resumes from the
// last agreed view (its seq and hash): the host sends the view again only when it differs.
import { EngineError } from "./engine.js";

// A short hash of a text (FNV-1a, 32 bits, hex): the host sends it with each view and the
// guest compares it with its own, so a view that arrived altered is noticed and asked again.
export function textHash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

export function viewHash(view) {
  return textHash(JSON.stringify(view));
}

// Times the whole view is asked again before the guest says it could not heal.
const HEAL_TRIES = 2;

// A call's result with its view put in place of the one that arrived altered.
function withView(result, view) {
  return result && result.view ? Object.assign({}, result, { view: view }) : view;
}

export class RemoteEngine {
  // link: {send(text)}; the owner passes each text received to receive(text). `agreed`: the
  // last view agreed with the host before ({seq, hash}), when this is a new pairing of a game
  // in progress (the numbering goes on).
  constructor(link, info, agreed) {
    this.link = link;
    this.nextId = 1;
    this.pending = new Map();
    this.info = info || null;
    this.failure = null;
    this.ready = Promise.resolve(info);
    this.listeners = { view: [], fatal: [], desync: [], healed: [], unhealed: [] };
    this.seq = (agreed && agreed.seq) || 0; // the last view both tablets agree on (acknowledged)
    this.hash = (agreed && agreed.hash) || null; // its hash
  }

  on(kind, listener) {
    this.listeners[kind].push(listener);
  }

  emit(kind, value) {
    (this.listeners[kind] || []).forEach((listener) => listener(value));
  }

  // A view from the host (an answer or a push): its hash checked, then acknowledged.
  checked(message, view) {
    if (message.hash && viewHash(view) !== message.hash) {
      this.emit("desync", message);
      return false;
    }
    if (typeof message.seq === "number") {
      this.seq = message.seq; // the link keeps the order: the latest is the last agreed
      this.hash = message.hash || null;
      this.link.send(JSON.stringify({ t: "ack", seq: message.seq }));
    }
    return true;
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch (error) {
      return;
    }
    if (message.t === "reply") {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (!message.ok) {
        waiting.reject(new EngineError(message.error || { key: "error.internal" }));
        return;
      }
      const view = message.result && message.result.view ? message.result.view : message.result;
      if (message.hash && !this.checked(message, view)) {
        if (waiting.method === "resync") {
          waiting.reject(new EngineError({ key: "ui.pair_desync", params: {}, message: "desync" }));
        } else {
          this.heal().then(
            (healed) => waiting.resolve(withView(message.result, healed)),
            waiting.reject,
          );
        }
        return;
      }
      waiting.resolve(message.result);
    } else if (message.t === "view") {
      if (this.checked(message, message.view)) this.emit("view", message.view);
      else
        this.heal().then(
          (healed) => this.emit("view", healed),
          () => {},
        );
    }
  }

  // A view arrived altered: the whole view is asked again (HEAL_TRIES times at most) and
  // given in place of it; "healed", or "unhealed" when every try arrived altered too.
  heal() {
    const tryAgain = (left) =>
      this.call("resync", { whole: true }).then(
        (answer) => answer.view,
        (error) => {
          if (left > 1 && error.key === "ui.pair_desync") return tryAgain(left - 1);
          throw error;
        },
      );
    return tryAgain(HEAL_TRIES).then(
      (view) => {
        this.emit("healed", view);
        return view;
      },
      (error) => {
        this.emit("unhealed", error);
        throw error;
      },
    );
  }

  // The link came back by itself: the view is asked from the last agreed one. The host
  // answers {same: true} when the guest's view is still the game's, else the whole view
  // (given as a "view", as a push is). Resolves with whether a new view came.
  resume() {
    return this.call("resync", { seq: this.seq, hash: this.hash }).then(
      (answer) => {
        if (!answer.view) return false;
        this.emit("view", answer.view);
        return true;
      },
      (error) => {
        if (error.key !== "ui.pair_desync") throw error;
        return this.heal().then((view) => {
          this.emit("view", view);
          return true;
        });
      },
    );
  }

  // The link is gone: every call waiting is refused, and every later one.
  fail(reason) {
    if (this.failure) return;
    this.failure = reason;
    const error = new EngineError({ key: "ui.pair_lost", params: {}, message: reason });
    this.pending.forEach((waiting) => waiting.reject(error));
    this.pending.clear();
    this.emit("fatal", error);
  }

  call(method, params) {
    if (this.failure) {
      return Promise.reject(new EngineError({ key: "ui.pair_lost", params: {} }));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve, reject: reject, method: method });
      try {
        this.link.send(JSON.stringify({ t: "call", id: id, method: method, params: params || {} }));
      } catch (error) {
        this.pending.delete(id);
        reject(new EngineError({ key: "ui.pair_lost", params: {}, message: String(error) }));
      }
    });
  }
}
