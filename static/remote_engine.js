// The guest's engine when two tablets play one game: the same promise API as engine.js,
// await remote.call(method, params), answered by the host's rules worker over a link (a
// WebRTC data channel, pair.js). Only JSON text crosses the link. The host answers every call
// as for the guest's side alone (pair_host.js), so the other side's hidden blocks never reach
// this device.
//
// Messages, host to guest: {t: "reply", id, ok, result | error, seq, hash} (seq and hash when
// the answer is a view) and {t: "view", view, seq, hash} (the guest's view changed by the
// host's side); guest to host: {t: "call", id, method, params} and {t: "ack", seq}.
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

export class RemoteEngine {
  // link: {send(text)}; the owner passes each text received to receive(text).
  constructor(link, info) {
    this.link = link;
    this.nextId = 1;
    this.pending = new Map();
    this.info = info || null;
    this.failure = null;
    this.ready = Promise.resolve(info);
    this.listeners = { view: [], fatal: [], desync: [] };
    this.seq = 0; // the last view both tablets agree on (acknowledged)
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
      this.seq = Math.max(this.seq, message.seq);
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
        waiting.reject(new EngineError({ key: "ui.pair_desync", params: {}, message: "desync" }));
        return;
      }
      waiting.resolve(message.result);
    } else if (message.t === "view") {
      if (this.checked(message, message.view)) this.emit("view", message.view);
    }
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
      this.pending.set(id, { resolve: resolve, reject: reject });
      try {
        this.link.send(JSON.stringify({ t: "call", id: id, method: method, params: params || {} }));
      } catch (error) {
        this.pending.delete(id);
        reject(new EngineError({ key: "ui.pair_lost", params: {}, message: String(error) }));
      }
    });
  }
}
