// A small zip reader over a Blob (a File): the central directory, and one entry at a time,
// reading only the bytes it needs with Blob.slice so a large module is never read whole.
// Stored and deflated entries (deflate through the browser's DecompressionStream, or where it
// has none, or none for "deflate-raw" (iPad Safari before 16.4), through inflate.js on the whole
// entry in memory); zip64.
// Every entry is read within a most the caller gives: an entry whose directory declares more
// unpacked bytes is refused before anything is unpacked, and unpacking stops as soon as the
// output passes the declared size (a zip bomb's entry declares little and unpacks to much), in
// both ways of unpacking. The central directory is read whole only up to MAX_DIRECTORY_BYTES.
// Errors carry an i18n key and its params (.key, .params).

import { inflateRaw } from "./inflate.js";
import { keyedError, mib } from "./editor_common.js";

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

// The central directory's most: 16 MiB lists some 150,000 entries (a large module has a few
// thousand).
export const MAX_DIRECTORY_BYTES = 16 * 1024 * 1024;
const CHUNK = 64 * 1024;
// The packed bytes go to DecompressionStream in pieces this small: some browsers unpack each
// piece they are given at once, whatever it unpacks to (a deflated piece unpacks to at most
// 1032 times its size), before the reader can stop them.
const PIECE = 16 * 1024;
// The packed stream cut into pieces of at most PIECE bytes.
function inPieces() {
  return new TransformStream({
    transform(chunk, controller) {
      for (let at = 0; at < chunk.length; at += PIECE) {
        controller.enqueue(chunk.subarray(at, at + PIECE));
      }
    },
  });
}

// Whether the browser unpacks raw deflate itself (asked each time: cheap, and a page may remove it).
// Whether deflate goes through the browser's DecompressionStream: where it has one for
// "deflate-raw", unless told not to (a Worker whose page has none unpacks as that page would).
let nativeAllowed = true;
export function allowNativeDeflate(allowed) {
  nativeAllowed = Boolean(allowed);
}

export function nativeDeflate() {
  if (!nativeAllowed || typeof DecompressionStream === "undefined") return false;
  try {
    new DecompressionStream("deflate-raw");
    return true;
  } catch (error) {
    return false;
  }
}

// Code page 437, bytes 0x80-0xFF: the names of zip entries without the UTF-8 flag.
const CP437_HIGH =
  "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀" +
  "αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0";

function cp437(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    s += b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80];
  }
  return s;
}

async function bytesOf(blob, start, end) {
  return new Uint8Array(await blob.slice(start, end).arrayBuffer());
}

function u64(view, at) {
  return view.getUint32(at, true) + view.getUint32(at + 4, true) * 0x100000000;
}

export class ZipReader {
  // The zip's entries, read from the central directory at the end of `blob`.
  static async open(blob, name) {
    const zip = new ZipReader(blob, name);
    await zip._readDirectory();
    return zip;
  }

  constructor(blob, name) {
    this.file = blob;
    this.name = name || blob.name || "";
    this.entries = []; // {name, method, flags, compressedSize, size, offset}
    this.byName = new Map();
  }

  _notZip() {
    return keyedError("editor.vassal.not_zip", { name: this.name });
  }

  async _readDirectory() {
    const size = this.file.size;
    if (size < 22) throw this._notZip();
    const tailStart = Math.max(0, size - 22 - 65535 - 20);
    const tail = await bytesOf(this.file, tailStart, size);
    const view = new DataView(tail.buffer);
    let at = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (view.getUint32(i, true) === EOCD) {
        at = i;
        break;
      }
    }
    if (at < 0) throw this._notZip();
    let count = view.getUint16(at + 10, true);
    let cdSize = view.getUint32(at + 12, true);
    let cdOffset = view.getUint32(at + 16, true);
    if (
      (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) &&
      at >= 20 &&
      view.getUint32(at - 20, true) === ZIP64_LOCATOR
    ) {
      const z64At = u64(view, at - 20 + 8);
      const z = await bytesOf(this.file, z64At, z64At + 56);
      const zv = new DataView(z.buffer);
      if (z.length < 56 || zv.getUint32(0, true) !== ZIP64_EOCD) throw this._notZip();
      count = u64(zv, 32);
      cdSize = u64(zv, 40);
      cdOffset = u64(zv, 48);
    }
    if (cdOffset + cdSize > size) throw this._notZip();
    if (cdSize > MAX_DIRECTORY_BYTES) {
      throw keyedError("editor.limit.directory", {
        name: this.name,
        size: mib(cdSize),
        max: mib(MAX_DIRECTORY_BYTES),
      });
    }
    const cd = await bytesOf(this.file, cdOffset, cdOffset + cdSize);
    const cv = new DataView(cd.buffer);
    const utf8 = new TextDecoder("utf-8");
    let p = 0;
    for (let n = 0; n < count; n++) {
      if (p + 46 > cd.length || cv.getUint32(p, true) !== CENTRAL) throw this._notZip();
      const flags = cv.getUint16(p + 8, true);
      const method = cv.getUint16(p + 10, true);
      let compressedSize = cv.getUint32(p + 20, true);
      let entrySize = cv.getUint32(p + 24, true);
      const nameLength = cv.getUint16(p + 28, true);
      const extraLength = cv.getUint16(p + 30, true);
      const commentLength = cv.getUint16(p + 32, true);
      let offset = cv.getUint32(p + 42, true);
      const rawName = cd.subarray(p + 46, p + 46 + nameLength);
      const name = flags & 0x800 ? utf8.decode(rawName) : cp437(rawName);
      // zip64: the sizes and offset that did not fit, in this order, in extra field 0x0001.
      let e = p + 46 + nameLength;
      const extraEnd = e + extraLength;
      while (e + 4 <= extraEnd) {
        const id = cv.getUint16(e, true);
        const len = cv.getUint16(e + 2, true);
        if (id === 1) {
          let q = e + 4;
          if (entrySize === 0xffffffff && q + 8 <= e + 4 + len) {
            entrySize = u64(cv, q);
            q += 8;
          }
          if (compressedSize === 0xffffffff && q + 8 <= e + 4 + len) {
            compressedSize = u64(cv, q);
            q += 8;
          }
          if (offset === 0xffffffff && q + 8 <= e + 4 + len) offset = u64(cv, q);
        }
        e += 4 + len;
      }
      const entry = { name, method, flags, compressedSize, size: entrySize, offset };
      this.entries.push(entry);
      if (!this.byName.has(name)) this.byName.set(name, entry);
      p = extraEnd + commentLength;
    }
  }

  // The entry of that name (exactly, else ignoring case and a leading "./" or "/"), or null.
  find(name) {
    const exact = this.byName.get(name);
    if (exact) return exact;
    const want = name.replace(/^\.?\//, "").toLowerCase();
    for (const entry of this.entries) {
      if (entry.name.replace(/^\.?\//, "").toLowerCase() === want) return entry;
    }
    return null;
  }

  _damaged(entry) {
    return keyedError("editor.vassal.damaged", { entry: entry.name });
  }

  // The entry's declared sizes against `max` (its most unpacked bytes) and each other,
  // before anything of it is unpacked.
  _checkSizes(entry, max) {
    if (!(max >= 0)) throw new Error("zip: no most given for " + entry.name);
    if (entry.size > max) {
      throw keyedError("editor.limit.entry", {
        entry: entry.name,
        size: mib(entry.size),
        max: mib(max),
      });
    }
    // Stored: as many bytes packed as unpacked. Deflated: never more than 9 bits a byte (fixed
    // Huffman codes of bytes 144-255; stored blocks cost 5 bytes in 65,535), and a little more.
    if (entry.method === STORED && entry.compressedSize !== entry.size) throw this._damaged(entry);
    if (entry.compressedSize > entry.size + entry.size / 8 + 1024) throw this._damaged(entry);
  }

  // Where the entry's data starts (after its local header), its sizes checked against `max`.
  async _dataStart(entry, max) {
    if (entry.flags & 1) throw keyedError("editor.vassal.encrypted", { entry: entry.name });
    if (entry.method !== STORED && entry.method !== DEFLATED) {
      throw keyedError("editor.vassal.method", { entry: entry.name, method: entry.method });
    }
    this._checkSizes(entry, max);
    const head = await bytesOf(this.file, entry.offset, entry.offset + 30);
    const hv = new DataView(head.buffer);
    if (head.length < 30 || hv.getUint32(0, true) !== LOCAL) throw this._damaged(entry);
    // The local header's sizes, when it gives them (not after the data: flag 3; not in zip64's
    // extra field: 0xffffffff), are the central directory's.
    const packed = hv.getUint32(18, true);
    const unpacked = hv.getUint32(22, true);
    if (
      !(entry.flags & 8) &&
      packed !== 0xffffffff &&
      unpacked !== 0xffffffff &&
      (packed !== entry.compressedSize || unpacked !== entry.size)
    ) {
      throw this._damaged(entry);
    }
    const start = entry.offset + 30 + hv.getUint16(26, true) + hv.getUint16(28, true);
    if (start + entry.compressedSize > this.file.size) throw this._damaged(entry);
    return start;
  }

  // Unpacking stopped past the declared size.
  _overDeclared(entry) {
    return keyedError("editor.limit.over_declared", { entry: entry.name, size: entry.size });
  }

  // A deflated entry's unpacked bytes by inflate.js (no DecompressionStream): all of them, or
  // the first `stop` or a few more. inflate.js stops past the declared size; an entry more
  // than the memory there is is refused with its size.
  async _inflate(entry, start, stop) {
    const end = start + entry.compressedSize;
    try {
      if (stop) {
        // The start of an entry is usually in its first packed bytes: try them alone first.
        const some = Math.min(entry.compressedSize, 65536 + stop);
        if (some < entry.compressedSize) {
          try {
            const packed = await bytesOf(this.file, start, start + some);
            return inflateRaw(packed, { size: entry.size, stop });
          } catch (error) {
            if (error.overLimit) throw error;
            // Too few: all of them below.
          }
        }
      }
      const packed = await bytesOf(this.file, start, end);
      return inflateRaw(packed, { size: entry.size, exact: !stop, stop });
    } catch (error) {
      if (error.overLimit) throw this._overDeclared(entry);
      if (error instanceof RangeError) {
        throw keyedError("editor.limit.no_memory", { entry: entry.name, size: mib(entry.size) });
      }
      throw this._damaged(entry);
    }
  }

  // A ReadableStream of the entry's unpacked bytes, from its data at `start` (the stream
  // itself is not cut: see _read()).
  _stream(entry, start) {
    const raw = this.file.slice(start, start + entry.compressedSize).stream();
    if (entry.method === STORED) return raw;
    return raw.pipeThrough(inPieces()).pipeThrough(new DecompressionStream("deflate-raw"));
  }

  // The parts of the entry's unpacked bytes through the browser's stream, from its data at
  // `start`: at least `want` of them when it has that many, else all; unpacking past the
  // declared size is cut there and refused.
  // `progress(have, size)`, when given, hears of each part.
  async _read(entry, start, want = Infinity, progress) {
    const reader = this._stream(entry, start).getReader();
    const parts = [];
    let have = 0;
    try {
      while (have < want) {
        const step = await reader.read();
        if (step.done) break;
        have += step.value.length;
        if (have > entry.size) throw this._overDeclared(entry);
        parts.push(step.value);
        if (progress) progress(have, entry.size);
      }
    } catch (error) {
      if (error.key) throw error;
      throw this._damaged(entry);
    } finally {
      reader.cancel().catch(() => {});
    }
    return { parts, have };
  }

  // The entry's unpacked bytes as a Blob of MIME type `type`, at most `max` of them: an entry
  // declaring more is refused before it is unpacked, one unpacking to more than it declares
  // is cut there and refused. `progress(have, size)`, when given, hears how far it is.
  async blob(entry, type, max, progress) {
    const start = await this._dataStart(entry, max);
    if (entry.method === STORED) {
      return this.file.slice(start, start + entry.compressedSize, type || "");
    }
    if (!nativeDeflate()) {
      const bytes = await this._inflate(entry, start);
      if (bytes.length !== entry.size) throw this._damaged(entry);
      return new Blob([bytes], { type: type || "" });
    }
    const { parts, have } = await this._read(entry, start, Infinity, progress);
    if (have !== entry.size) throw this._damaged(entry);
    return new Blob(parts, { type: type || "" });
  }

  // The entry's first bytes, at least `want` of them when it has that many (less is read
  // for a deflated entry than the whole when the start is enough); its declared size at most
  // `max`.
  async head(entry, want, max) {
    const start = await this._dataStart(entry, max);
    if (entry.method !== STORED && !nativeDeflate()) {
      return this._inflate(entry, start, Math.max(1, want));
    }
    const { parts, have } = await this._read(entry, start, want);
    const out = new Uint8Array(have);
    let p = 0;
    for (const part of parts) {
      out.set(part, p);
      p += part.length;
    }
    return out;
  }

  // The entry's text (UTF-8), at most `max` bytes of it (as blob()).
  async text(entry, max, progress) {
    return (await this.blob(entry, "", max, progress)).text();
  }
}
