// A raw DEFLATE decoder (RFC 1951, "DEFLATE Compressed Data Format Specification version 1.3"):
// stored, fixed Huffman and dynamic Huffman blocks, with no zlib or gzip wrapper. zip.js uses
// it for a module's deflated entries when the browser has no DecompressionStream("deflate-raw")
// (iPad Safari before 16.4). It works on the whole entry in memory.
//
// Every malformed stream is refused with an Error (never a hang, never a read past the input):
// a bad block type, a stored block whose length is not its complement, an over-subscribed or
// unusable Huffman code, a code length repeated with nothing before it or past the lengths, an
// invalid length or distance symbol, a distance before the start of the output, more output than
// the caller allows, and input that ends before the final block does.

// Section 3.2.5: the lengths (symbols 257..285) and distances (0..29), their bases and extra bits.
const LENGTH_BASE = new Uint16Array([
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
  163, 195, 227, 258,
]);
const LENGTH_EXTRA = new Uint8Array([
  0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
]);
const DIST_BASE = new Uint16Array([
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
  3073, 4097, 6145, 8193, 12289, 16385, 24577,
]);
const DIST_EXTRA = new Uint8Array([
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
]);
// Section 3.2.7: the order in which the code length code's lengths are sent.
const CLEN_ORDER = new Uint8Array([
  16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
]);

const MAX_BITS = 15;

function fail(what) {
  return new Error("inflate: " + what);
}

// A Huffman code as one lookup table indexed by the next `bits` input bits (least significant
// first, as DEFLATE packs them): each entry is symbol << 4 | code length, 0 where no code
// starts with those bits. Codes are canonical (section 3.2.2) from `lengths[0..count)`.
class Table {
  constructor(size) {
    this.entries = new Int32Array(size);
    this.bits = 0;
  }
}

const lengthCount = new Uint16Array(MAX_BITS + 1);
const nextCode = new Uint16Array(MAX_BITS + 1);

function buildTable(table, lengths, offset, count, what) {
  lengthCount.fill(0);
  let maxLength = 0;
  for (let i = 0; i < count; i++) {
    const length = lengths[offset + i];
    lengthCount[length]++;
    if (length > maxLength) maxLength = length;
  }
  lengthCount[0] = 0;
  // More codes of a length than the bits allow: no prefix code has these lengths.
  let left = 1;
  for (let length = 1; length <= MAX_BITS; length++) {
    left = left * 2 - lengthCount[length];
    if (left < 0) throw fail("over-subscribed " + what + " code");
  }
  let code = 0;
  for (let length = 1; length <= MAX_BITS; length++) {
    code = (code + lengthCount[length - 1]) << 1;
    nextCode[length] = code;
  }
  const size = 1 << maxLength;
  const entries = table.entries;
  entries.fill(0, 0, size);
  for (let symbol = 0; symbol < count; symbol++) {
    const length = lengths[offset + symbol];
    if (length === 0) continue;
    // The code is sent from its most significant bit: reverse it to index by input bits.
    let c = nextCode[length]++;
    let reversed = 0;
    for (let i = 0; i < length; i++) {
      reversed = (reversed << 1) | (c & 1);
      c >>= 1;
    }
    const entry = (symbol << 4) | length;
    for (let i = reversed; i < size; i += 1 << length) entries[i] = entry;
  }
  table.bits = maxLength;
}

let fixedLiterals = null;
let fixedDistances = null;

// Section 3.2.6: the fixed codes.
function fixedTables() {
  if (!fixedLiterals) {
    const lengths = new Uint8Array(288 + 32);
    lengths.fill(8, 0, 144);
    lengths.fill(9, 144, 256);
    lengths.fill(7, 256, 280);
    lengths.fill(8, 280, 288);
    lengths.fill(5, 288, 320);
    fixedLiterals = new Table(1 << 9);
    fixedDistances = new Table(1 << 5);
    buildTable(fixedLiterals, lengths, 0, 288, "literal/length");
    buildTable(fixedDistances, lengths, 288, 32, "distance");
  }
}

const TRUNCATED = "the input ends before the last block";

// The input's bits, least significant first (section 3.1.1), and the output so far. Reading
// past the input feeds zero bits; any of them used means the input was cut short.
class State {
  constructor(src, out, limit) {
    this.src = src;
    this.pos = 0;
    this.bitBuffer = 0;
    this.bitCount = 0;
    this.out = out;
    this.op = 0;
    this.limit = limit;
  }

  overrun() {
    return this.pos > this.src.length && (this.pos - this.src.length) * 8 > this.bitCount;
  }

  bits(n) {
    const src = this.src;
    while (this.bitCount < n) {
      this.bitBuffer |= (this.pos < src.length ? src[this.pos] : 0) << this.bitCount;
      this.pos++;
      this.bitCount += 8;
    }
    const value = this.bitBuffer & ((1 << n) - 1);
    this.bitBuffer >>>= n;
    this.bitCount -= n;
    if (this.overrun()) throw fail(TRUNCATED);
    return value;
  }

  // The next symbol of `table`'s code.
  symbol(table) {
    const src = this.src;
    while (this.bitCount < table.bits) {
      this.bitBuffer |= (this.pos < src.length ? src[this.pos] : 0) << this.bitCount;
      this.pos++;
      this.bitCount += 8;
    }
    const entry = table.entries[this.bitBuffer & ((1 << table.bits) - 1)];
    const used = entry & 15;
    if (used === 0) throw fail("invalid code");
    this.bitBuffer >>>= used;
    this.bitCount -= used;
    if (this.overrun()) throw fail(TRUNCATED);
    return entry >>> 4;
  }

  // The output with room for `need` more bytes after `op`, or an Error past the limit.
  grow(op, need) {
    if (op + need > this.limit) {
      // The caller's most reached: decoding stops here, whatever the rest would unpack to.
      const error = fail("more output than the " + this.limit + " bytes allowed");
      error.overLimit = true;
      throw error;
    }
    let size = this.out.length * 2;
    while (size < op + need) size *= 2;
    if (size > this.limit) size = this.limit;
    const bigger = new Uint8Array(size);
    bigger.set(this.out.subarray(0, op));
    this.out = bigger;
    return bigger;
  }
}

// Section 3.2.4: skip to a byte boundary, LEN and NLEN, then LEN bytes as they are.
function storedBlock(s) {
  const src = s.src;
  // The whole bytes still in the bit buffer are read again.
  s.pos -= s.bitCount >> 3;
  s.bitBuffer = 0;
  s.bitCount = 0;
  if (s.pos + 4 > src.length) throw fail(TRUNCATED);
  const length = src[s.pos] | (src[s.pos + 1] << 8);
  const complement = src[s.pos + 2] | (src[s.pos + 3] << 8);
  s.pos += 4;
  if ((length ^ 0xffff) !== complement) throw fail("stored block length is not its complement");
  if (s.pos + length > src.length) throw fail(TRUNCATED);
  let out = s.out;
  if (s.op + length > out.length) out = s.grow(s.op, length);
  out.set(src.subarray(s.pos, s.pos + length), s.op);
  s.pos += length;
  s.op += length;
}

// Section 3.2.7: a dynamic block's codes, their lengths themselves Huffman coded.
function readCodes(s, lengths, clenTable, literals, distances) {
  const hlit = s.bits(5) + 257;
  const hdist = s.bits(5) + 1;
  const hclen = s.bits(4) + 4;
  if (hlit > 286 || hdist > 30) throw fail("too many length or distance symbols");
  lengths.fill(0, 0, 19);
  for (let i = 0; i < hclen; i++) lengths[CLEN_ORDER[i]] = s.bits(3);
  buildTable(clenTable, lengths, 0, 19, "code length");
  const total = hlit + hdist;
  let i = 0;
  while (i < total) {
    const symbol = s.symbol(clenTable);
    if (symbol < 16) {
      lengths[i++] = symbol;
      continue;
    }
    let repeat;
    let value = 0;
    if (symbol === 16) {
      if (i === 0) throw fail("a repeated code length with none before it");
      value = lengths[i - 1];
      repeat = 3 + s.bits(2);
    } else if (symbol === 17) {
      repeat = 3 + s.bits(3);
    } else {
      repeat = 11 + s.bits(7);
    }
    if (i + repeat > total) throw fail("code lengths past the end of the lengths");
    lengths.fill(value, i, i + repeat);
    i += repeat;
  }
  if (lengths[256] === 0) throw fail("no end-of-block code");
  buildTable(literals, lengths, 0, hlit, "literal/length");
  buildTable(distances, lengths, hlit, hdist, "distance");
}

// Section 3.2.5: a Huffman block's literals and (length, distance) pairs copying earlier
// output, up to its end-of-block code or until `stop` bytes are out. The hot loop: everything
// in locals, written back to `s` at the end.
function huffmanBlock(s, lit, dist, stop) {
  const src = s.src;
  const srcLength = src.length;
  let pos = s.pos;
  let bitBuffer = s.bitBuffer;
  let bitCount = s.bitCount;
  let out = s.out;
  let capacity = out.length;
  let op = s.op;
  const litEntries = lit.entries;
  const litMask = (1 << lit.bits) - 1;
  const distEntries = dist.entries;
  const distMask = (1 << dist.bits) - 1;
  let problem = null;
  for (;;) {
    if (pos > srcLength && (pos - srcLength) * 8 > bitCount) break; // cut short: below
    // 24 bits at hand hold any code (15) with the extra bits of a length (5).
    while (bitCount < 24) {
      bitBuffer |= (pos < srcLength ? src[pos] : 0) << bitCount;
      pos++;
      bitCount += 8;
    }
    let entry = litEntries[bitBuffer & litMask];
    let used = entry & 15;
    if (used === 0) {
      problem = "invalid literal/length code";
      break;
    }
    bitBuffer >>>= used;
    bitCount -= used;
    let symbol = entry >>> 4;
    if (symbol < 256) {
      if (op >= capacity) {
        s.op = op;
        out = s.grow(op, 1);
        capacity = out.length;
      }
      out[op++] = symbol;
      if (op >= stop) break;
      continue;
    }
    if (symbol === 256) break;
    symbol -= 257;
    if (symbol >= 29) {
      problem = "invalid length symbol";
      break;
    }
    let length = LENGTH_BASE[symbol];
    let extra = LENGTH_EXTRA[symbol];
    if (extra) {
      length += bitBuffer & ((1 << extra) - 1);
      bitBuffer >>>= extra;
      bitCount -= extra;
    }
    // And 24 more for a distance code (15) with all but the widest extra bits (13).
    while (bitCount < 24) {
      bitBuffer |= (pos < srcLength ? src[pos] : 0) << bitCount;
      pos++;
      bitCount += 8;
    }
    entry = distEntries[bitBuffer & distMask];
    used = entry & 15;
    if (used === 0) {
      problem = "invalid distance code";
      break;
    }
    bitBuffer >>>= used;
    bitCount -= used;
    symbol = entry >>> 4;
    if (symbol >= 30) {
      problem = "invalid distance symbol";
      break;
    }
    let distance = DIST_BASE[symbol];
    extra = DIST_EXTRA[symbol];
    if (extra) {
      if (bitCount < extra) {
        bitBuffer |= (pos < srcLength ? src[pos] : 0) << bitCount;
        pos++;
        bitCount += 8;
      }
      distance += bitBuffer & ((1 << extra) - 1);
      bitBuffer >>>= extra;
      bitCount -= extra;
    }
    if (distance > op) {
      problem = "a distance before the start of the output";
      break;
    }
    if (pos > srcLength && (pos - srcLength) * 8 > bitCount) break; // cut short: below
    if (op + length > capacity) {
      s.op = op;
      out = s.grow(op, length);
      capacity = out.length;
    }
    let from = op - distance;
    if (distance >= length && length > 16) {
      out.copyWithin(op, from, from + length);
      op += length;
    } else {
      const end = op + length;
      while (op < end) out[op++] = out[from++];
    }
    if (op >= stop) break;
  }
  s.pos = pos;
  s.bitBuffer = bitBuffer;
  s.bitCount = bitCount;
  s.op = op;
  // Whatever was decoded from zero bits past the input is no output.
  if (s.overrun()) throw fail(TRUNCATED);
  if (problem) throw fail(problem);
}

// The bytes that `data` (a raw DEFLATE stream, a Uint8Array) unpacks to.
//   options.size: the most bytes it may unpack to (required: the caller's bound on memory); an
//     Error (with .overLimit) as soon as the output would pass it, the rest not decoded. With options.exact the output is allocated at this
//     size at once (the zip directory's size), else it grows as needed up to it.
//   options.stop: stop once at least this many bytes are out (the start of an entry), giving
//     what is out so far.
// The output may be shorter than options.size; the caller checks it against what it expects.
export function inflateRaw(data, options) {
  const opts = options || {};
  const limit = opts.size;
  if (!(limit >= 0)) throw fail("no size limit given");
  const stop = opts.stop > 0 ? opts.stop : Infinity;
  const first = opts.exact ? limit : Math.min(limit, Math.max(65536, data.length * 4));
  const s = new State(data, new Uint8Array(first), limit);
  const lengths = new Uint8Array(286 + 30);
  const clenTable = new Table(1 << 7);
  let literals = null;
  let distances = null;
  let last = 0;
  while (!last && s.op < stop) {
    last = s.bits(1);
    const type = s.bits(2);
    if (type === 0) {
      storedBlock(s);
    } else if (type === 1) {
      fixedTables();
      huffmanBlock(s, fixedLiterals, fixedDistances, stop);
    } else if (type === 2) {
      if (!literals) {
        literals = new Table(1 << MAX_BITS);
        distances = new Table(1 << MAX_BITS);
      }
      readCodes(s, lengths, clenTable, literals, distances);
      huffmanBlock(s, literals, distances, stop);
    } else {
      throw fail("invalid block type 3");
    }
  }
  return s.out.subarray(0, s.op);
}
