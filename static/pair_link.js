// A WebRTC data channel between two tablets with no server: the host's offer and the guest's
// answer are each squeezed into a short code (what a QR code or a few typed lines carry) and
// rebuilt into a full session description on the other tablet. Only what the connection
// needs travels: the ICE user fragment and password, the DTLS certificate's fingerprint and
// the tablet's host candidates on the local network (no STUN, no TURN: no internet used).
//
// A code: "M1" + kind ("o" offer, "a" answer) + fields joined by "~": ufrag, pwd, the
// fingerprint's 32 bytes in base64url, then each candidate as address:port.
const PREFIX = "M1";
const GATHER_MS = 4000;
// A link the browser calls "disconnected" (a tablet asleep, out of range for a moment) may come
// back by itself when ICE checks again: it is waited for this long before it is given up.
const GRACE_MS = 30000;

function b64url(bytes) {
  let text = "";
  bytes.forEach((b) => (text += String.fromCharCode(b)));
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromB64url(text) {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Array.prototype.map.call(plain, (c) => c.charCodeAt(0));
}

function line(sdp, name) {
  const found = sdp.split(/\r?\n/).find((l) => l.startsWith("a=" + name + ":"));
  return found ? found.slice(name.length + 3).trim() : null;
}

// The parts of a session description a code carries.
function partsOf(sdp) {
  const fingerprint = (line(sdp, "fingerprint") || "").split(" ")[1] || "";
  const candidates = [];
  sdp.split(/\r?\n/).forEach((l) => {
    const m = /^a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ host/i.exec(l);
    if (m && m[1].indexOf(":") < 0) candidates.push(m[1] + ":" + m[2]);
  });
  return {
    ufrag: line(sdp, "ice-ufrag"),
    pwd: line(sdp, "ice-pwd"),
    fingerprint: fingerprint.split(":").map((h) => parseInt(h, 16)),
    candidates: candidates,
  };
}

export function encode(kind, sdp) {
  const p = partsOf(sdp);
  return [PREFIX + kind + p.ufrag, p.pwd, b64url(p.fingerprint)].concat(p.candidates).join("~");
}

// A code typed or read back into its parts; null when it is not one.
export function decode(code, kind) {
  const text = String(code || "").replace(/\s+/g, "");
  if (!text.startsWith(PREFIX + kind)) return null;
  const fields = text.slice(PREFIX.length + 1).split("~");
  if (fields.length < 4) return null;
  let fingerprint;
  try {
    fingerprint = fromB64url(fields[2]);
  } catch (error) {
    return null;
  }
  if (fingerprint.length !== 32) return null;
  const candidates = fields.slice(3).filter((c) => /^[^\s:]+:\d+$/.test(c));
  if (!candidates.length || !fields[0] || !fields[1]) return null;
  return { ufrag: fields[0], pwd: fields[1], fingerprint: fingerprint, candidates: candidates };
}

// The full session description rebuilt from a code's parts.
function sdpOf(parts, kind) {
  const hex = parts.fingerprint.map((b) => b.toString(16).padStart(2, "0").toUpperCase());
  const lines = [
    "v=0",
    "o=- 1 2 IN IP4 127.0.0.1",
    "s=-",
    "t=0 0",
    "a=group:BUNDLE 0",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
    "c=IN IP4 0.0.0.0",
    "a=ice-ufrag:" + parts.ufrag,
    "a=ice-pwd:" + parts.pwd,
    "a=fingerprint:sha-256 " + hex.join(":"),
    "a=setup:" + (kind === "o" ? "actpass" : "active"),
    "a=mid:0",
    "a=sctp-port:5000",
    "a=max-message-size:262144",
  ];
  parts.candidates.forEach((c, i) => {
    const at = c.lastIndexOf(":");
    const address = c.slice(0, at);
    const port = c.slice(at + 1);
    lines.push(`a=candidate:${i + 1} 1 udp ${2122260223 - i} ${address} ${port} typ host`);
  });
  lines.push("a=end-of-candidates");
  return lines.join("\r\n") + "\r\n";
}

function gathered(pc) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    const done = () => {
      if (pc.iceGatheringState === "complete") resolve();
    };
    pc.addEventListener("icegatheringstatechange", done);
    setTimeout(resolve, GATHER_MS);
  });
}

// One tablet's end of the link: {code} to show, then open(); `onmessage(text)`, `onclose()`,
// and `onpause()` / `onback()` when the connection is interrupted and comes back by itself.
export class PairLink {
  constructor() {
    this.pc = new RTCPeerConnection({ iceServers: [] });
    // Negotiated on both tablets alike: no channel announcement to wait for.
    this.channel = this.pc.createDataChannel("muster", { negotiated: true, id: 0, ordered: true });
    this.onmessage = null;
    this.onclose = null;
    this.onopen = null;
    this.onpause = null;
    this.onback = null;
    this.closed = false;
    this.grace = null; // the timer of a "disconnected" link waited for
    this.channel.addEventListener("message", (event) => {
      if (this.onmessage) this.onmessage(String(event.data));
    });
    this.channel.addEventListener("open", () => {
      if (this.onopen) this.onopen();
    });
    this.channel.addEventListener("close", () => this.lost());
    this.pc.addEventListener("connectionstatechange", () =>
      this.linkState(this.pc.connectionState),
    );
  }

  // What the browser says of the connection: "failed" or "closed" ends the link;
  // "disconnected" is waited for (GRACE_MS), and "connected" again resumes it.
  linkState(state) {
    if (this.closed) return;
    if (state === "failed" || state === "closed") {
      this.lost();
    } else if (state === "disconnected") {
      if (this.grace) return;
      this.grace = setTimeout(() => this.close(), GRACE_MS);
      if (this.onpause) this.onpause();
    } else if (state === "connected" && this.grace) {
      clearTimeout(this.grace);
      this.grace = null;
      if (this.onback) this.onback();
    }
  }

  lost() {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.grace);
    this.grace = null;
    if (this.onclose) this.onclose();
  }

  // The host: its offer's code.
  offer() {
    return this.pc
      .createOffer()
      .then((offer) => this.pc.setLocalDescription(offer))
      .then(() => gathered(this.pc))
      .then(() => encode("o", this.pc.localDescription.sdp));
  }

  // The guest: the host's code in, its answer's code out.
  answer(code) {
    const parts = decode(code, "o");
    if (!parts) return Promise.reject(new Error("bad code"));
    return this.pc
      .setRemoteDescription({ type: "offer", sdp: sdpOf(parts, "o") })
      .then(() => this.pc.createAnswer())
      .then((answer) => this.pc.setLocalDescription(answer))
      .then(() => gathered(this.pc))
      .then(() => encode("a", this.pc.localDescription.sdp));
  }

  // The host: the guest's answer code in.
  accept(code) {
    const parts = decode(code, "a");
    if (!parts) return Promise.reject(new Error("bad code"));
    return this.pc.setRemoteDescription({ type: "answer", sdp: sdpOf(parts, "a") });
  }

  send(text) {
    if (this.channel.readyState !== "open") throw new Error("the link is closed");
    this.channel.send(text);
  }

  close() {
    this.channel.close();
    this.pc.close();
    this.lost();
  }
}
