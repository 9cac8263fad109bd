// A small zip reader over a Blob (a File): the central directory, and one entry at a time,
// reading only the bytes it needs with Blob.slice so a large module is never read whole.
// Stored and deflated entries (deflate through the browser's DecompressionStream, or where it
// has none, or none for "deflate-raw" (iPad Safari before 16.4), through inflate.js on the whole
// entry in memory, up to FALLBACK_MAX bytes unpacked); zip64.
// Errors carry an i18n key and its params (.key, .params).

import { inflateRaw } from "./inflate.js";

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

// The largest entry unpacked without DecompressionStream: it is held whole in memory (with its
// packed bytes and then the Blob made of it), which an older tablet must afford.
export const FALLBACK_MAX = 128 * 1024 * 1024;
const CHUNK = 64 * 1024;

// Whether the browser unpacks raw deflate itself (asked each time: cheap, and a page may remove it).
function nativeDeflate() {
  if (typeof DecompressionStream === "undefined") return false;
  try {
    new DecompressionStream("deflate-raw");
    return true;
  } catch (error) {
    return false;
  }
}

// An Error whose words are an i18n key and its params.
export function keyedError(key, params) {
  const error = new Error(key + (params ? " " + JSON.stringify(params) : ""));
  error.key = key;
  error.params = params || {};
  return error;
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

  // Where the entry's data starts (after its local header).
  async _dataStart(entry) {
    if (entry.flags & 1) throw keyedError("editor.vassal.encrypted", { entry: entry.name });
    if (entry.method !== STORED && entry.method !== DEFLATED) {
      throw keyedError("editor.vassal.method", { entry: entry.name, method: entry.method });
    }
    const head = await bytesOf(this.file, entry.offset, entry.offset + 30);
    const hv = new DataView(head.buffer);
    if (head.length < 30 || hv.getUint32(0, true) !== LOCAL) {
      throw keyedError("editor.vassal.damaged", { entry: entry.name });
    }
    const start = entry.offset + 30 + hv.getUint16(26, true) + hv.getUint16(28, true);
    if (start + entry.compressedSize > this.file.size) {
      throw keyedError("editor.vassal.damaged", { entry: entry.name });
    }
    return start;
  }

  // A deflated entry's unpacked bytes by inflate.js (no DecompressionStream): all of them, or
  // the first `stop` or a few more. An entry unpacking to more than FALLBACK_MAX (or more than
  // the memory there is) is refused as too large to unpack here, with its size and the
  // most it can, in MiB.
  async _inflate(entry, start, stop) {
    const tooLarge = () =>
      keyedError("editor.vassal.too_large", {
        entry: entry.name,
        size: Math.ceil(entry.size / (1024 * 1024)),
        max: FALLBACK_MAX / (1024 * 1024),
      });
    if (entry.size > FALLBACK_MAX) throw tooLarge();
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
            // Too few: all of them below.
          }
        }
      }
      const packed = await bytesOf(this.file, start, end);
      return inflateRaw(packed, { size: entry.size, exact: !stop, stop });
    } catch (error) {
      if (error instanceof RangeError) throw tooLarge(); // no memory for it
      throw keyedError("editor.vassal.damaged", { entry: entry.name });
    }
  }

  // A ReadableStream of the entry's unpacked bytes.
  async stream(entry) {
    const start = await this._dataStart(entry);
    if (entry.method !== STORED && !nativeDeflate()) {
      const bytes = await this._inflate(entry, start);
      let at = 0;
      return new ReadableStream({
        pull(controller) {
          if (at >= bytes.length) {
            controller.close();
            return;
          }
          controller.enqueue(bytes.slice(at, at + CHUNK));
          at += CHUNK;
        },
      });
    }
    const raw = this.file.slice(start, start + entry.compressedSize).stream();
    if (entry.method === STORED) return raw;
    return raw.pipeThrough(new DecompressionStream("deflate-raw"));
  }

  // The entry's unpacked bytes as a Blob of MIME type `type`.
  async blob(entry, type) {
    const start = await this._dataStart(entry);
    const raw = this.file.slice(start, start + entry.compressedSize, type || "");
    if (entry.method === STORED) return raw;
    if (!nativeDeflate()) {
      const bytes = await this._inflate(entry, start);
      if (bytes.length !== entry.size) {
        throw keyedError("editor.vassal.damaged", { entry: entry.name });
      }
      return new Blob([bytes], { type: type || "" });
    }
    let out;
    try {
      out = await new Response(await this.stream(entry)).blob();
    } catch (error) {
      if (error.key) throw error;
      throw keyedError("editor.vassal.damaged", { entry: entry.name });
    }
    if (out.size !== entry.size) throw keyedError("editor.vassal.damaged", { entry: entry.name });
    return type ? out.slice(0, out.size, type) : out;
  }

  // The entry's first bytes, at least `want` of them when it has that many (less is read
  // for a deflated entry than the whole when the start is enough).
  async head(entry, want) {
    if (entry.method !== STORED && !nativeDeflate()) {
      return this._inflate(entry, await this._dataStart(entry), Math.max(1, want));
    }
    const reader = (await this.stream(entry)).getReader();
    const parts = [];
    let have = 0;
    try {
      while (have < want) {
        const step = await reader.read();
        if (step.done) break;
        parts.push(step.value);
        have += step.value.length;
      }
    } catch (error) {
      throw keyedError("editor.vassal.damaged", { entry: entry.name });
    } finally {
      reader.cancel().catch(() => {});
    }
    const out = new Uint8Array(have);
    let p = 0;
    for (const part of parts) {
      out.set(part, p);
      p += part.length;
    }
    return out;
  }

  async text(entry) {
    return new TextDecoder("utf-8").decode(
      new Uint8Array(await (await this.blob(entry)).arrayBuffer()),
    );
  }
}
