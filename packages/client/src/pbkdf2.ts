/**
 * PBKDF2-HMAC-SHA-256 in plain JavaScript, for runtimes without Web Crypto (React Native on
 * Hermes has no `crypto.subtle`). Built for the altcha solver's load, thousands of derivations of
 * a few thousand iterations each: the HMAC key is hashed into its inner and outer states once per
 * derivation, and each iteration is then exactly two SHA-256 compressions of one block held in a
 * reused `Int32Array`, with no allocation inside the loop.
 */

let tables: { k: Int32Array; iv: Int32Array } | undefined;

/** Round constants and initial hash value: the fractional parts of the cube and square roots of the first primes (FIPS 180-4). */
function constants(): { k: Int32Array; iv: Int32Array } {
  if (tables === undefined) {
    const k = new Int32Array(64);
    const iv = new Int32Array(8);
    const fraction = (x: number) => ((x - Math.floor(x)) * 2 ** 32) | 0;
    for (let p = 2, n = 0; n < 64; p += 1) {
      let prime = true;
      for (let d = 2; d * d <= p; d += 1) if (p % d === 0) prime = false;
      if (!prime) continue;
      if (n < 8) iv[n] = fraction(Math.sqrt(p));
      k[n] = fraction(Math.cbrt(p));
      n += 1;
    }
    tables = { k, iv };
  }
  return tables;
}

/**
 * One SHA-256 compression of the block `w[0..15]` onto the chaining value `s`; the result replaces
 * `w[0..7]` and `w[8..15]` stay as they were, so a caller hashing 32-byte messages of one total
 * length sets their padding once. The message schedule lives in sixteen locals, recomputed in
 * place every sixteen rounds, and the working variables are renamed from round to round instead of
 * shifted: after eight rounds every name holds its own role again. Several times faster in V8 than
 * the textbook loop over a 64-word schedule.
 */
function compress(s: Int32Array, w: Int32Array, k: Int32Array): void {
  let a = s[0]!, b = s[1]!, c = s[2]!, d = s[3]!, e = s[4]!, f = s[5]!, g = s[6]!, h = s[7]!;
  let w0 = w[0]!, w1 = w[1]!, w2 = w[2]!, w3 = w[3]!, w4 = w[4]!, w5 = w[5]!, w6 = w[6]!, w7 = w[7]!, w8 = w[8]!, w9 = w[9]!, w10 = w[10]!, w11 = w[11]!, w12 = w[12]!, w13 = w[13]!, w14 = w[14]!, w15 = w[15]!;
  for (let i = 0; i < 64; i += 16) {
    if (i > 0) {
      w0 = (((w1 >>> 7) | (w1 << 25)) ^ ((w1 >>> 18) | (w1 << 14)) ^ (w1 >>> 3)) + (((w14 >>> 17) | (w14 << 15)) ^ ((w14 >>> 19) | (w14 << 13)) ^ (w14 >>> 10)) + w9 + w0 | 0;
      w1 = (((w2 >>> 7) | (w2 << 25)) ^ ((w2 >>> 18) | (w2 << 14)) ^ (w2 >>> 3)) + (((w15 >>> 17) | (w15 << 15)) ^ ((w15 >>> 19) | (w15 << 13)) ^ (w15 >>> 10)) + w10 + w1 | 0;
      w2 = (((w3 >>> 7) | (w3 << 25)) ^ ((w3 >>> 18) | (w3 << 14)) ^ (w3 >>> 3)) + (((w0 >>> 17) | (w0 << 15)) ^ ((w0 >>> 19) | (w0 << 13)) ^ (w0 >>> 10)) + w11 + w2 | 0;
      w3 = (((w4 >>> 7) | (w4 << 25)) ^ ((w4 >>> 18) | (w4 << 14)) ^ (w4 >>> 3)) + (((w1 >>> 17) | (w1 << 15)) ^ ((w1 >>> 19) | (w1 << 13)) ^ (w1 >>> 10)) + w12 + w3 | 0;
      w4 = (((w5 >>> 7) | (w5 << 25)) ^ ((w5 >>> 18) | (w5 << 14)) ^ (w5 >>> 3)) + (((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10)) + w13 + w4 | 0;
      w5 = (((w6 >>> 7) | (w6 << 25)) ^ ((w6 >>> 18) | (w6 << 14)) ^ (w6 >>> 3)) + (((w3 >>> 17) | (w3 << 15)) ^ ((w3 >>> 19) | (w3 << 13)) ^ (w3 >>> 10)) + w14 + w5 | 0;
      w6 = (((w7 >>> 7) | (w7 << 25)) ^ ((w7 >>> 18) | (w7 << 14)) ^ (w7 >>> 3)) + (((w4 >>> 17) | (w4 << 15)) ^ ((w4 >>> 19) | (w4 << 13)) ^ (w4 >>> 10)) + w15 + w6 | 0;
      w7 = (((w8 >>> 7) | (w8 << 25)) ^ ((w8 >>> 18) | (w8 << 14)) ^ (w8 >>> 3)) + (((w5 >>> 17) | (w5 << 15)) ^ ((w5 >>> 19) | (w5 << 13)) ^ (w5 >>> 10)) + w0 + w7 | 0;
      w8 = (((w9 >>> 7) | (w9 << 25)) ^ ((w9 >>> 18) | (w9 << 14)) ^ (w9 >>> 3)) + (((w6 >>> 17) | (w6 << 15)) ^ ((w6 >>> 19) | (w6 << 13)) ^ (w6 >>> 10)) + w1 + w8 | 0;
      w9 = (((w10 >>> 7) | (w10 << 25)) ^ ((w10 >>> 18) | (w10 << 14)) ^ (w10 >>> 3)) + (((w7 >>> 17) | (w7 << 15)) ^ ((w7 >>> 19) | (w7 << 13)) ^ (w7 >>> 10)) + w2 + w9 | 0;
      w10 = (((w11 >>> 7) | (w11 << 25)) ^ ((w11 >>> 18) | (w11 << 14)) ^ (w11 >>> 3)) + (((w8 >>> 17) | (w8 << 15)) ^ ((w8 >>> 19) | (w8 << 13)) ^ (w8 >>> 10)) + w3 + w10 | 0;
      w11 = (((w12 >>> 7) | (w12 << 25)) ^ ((w12 >>> 18) | (w12 << 14)) ^ (w12 >>> 3)) + (((w9 >>> 17) | (w9 << 15)) ^ ((w9 >>> 19) | (w9 << 13)) ^ (w9 >>> 10)) + w4 + w11 | 0;
      w12 = (((w13 >>> 7) | (w13 << 25)) ^ ((w13 >>> 18) | (w13 << 14)) ^ (w13 >>> 3)) + (((w10 >>> 17) | (w10 << 15)) ^ ((w10 >>> 19) | (w10 << 13)) ^ (w10 >>> 10)) + w5 + w12 | 0;
      w13 = (((w14 >>> 7) | (w14 << 25)) ^ ((w14 >>> 18) | (w14 << 14)) ^ (w14 >>> 3)) + (((w11 >>> 17) | (w11 << 15)) ^ ((w11 >>> 19) | (w11 << 13)) ^ (w11 >>> 10)) + w6 + w13 | 0;
      w14 = (((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3)) + (((w12 >>> 17) | (w12 << 15)) ^ ((w12 >>> 19) | (w12 << 13)) ^ (w12 >>> 10)) + w7 + w14 | 0;
      w15 = (((w0 >>> 7) | (w0 << 25)) ^ ((w0 >>> 18) | (w0 << 14)) ^ (w0 >>> 3)) + (((w13 >>> 17) | (w13 << 15)) ^ ((w13 >>> 19) | (w13 << 13)) ^ (w13 >>> 10)) + w8 + w15 | 0;
    }
    h = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + k[i]! + w0) | 0;
    d = (d + h) | 0;
    h = (h + (((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
    g = (g + (((d >>> 6) | (d << 26)) ^ ((d >>> 11) | (d << 21)) ^ ((d >>> 25) | (d << 7))) + (f ^ (d & (e ^ f))) + k[i + 1]! + w1) | 0;
    c = (c + g) | 0;
    g = (g + (((h >>> 2) | (h << 30)) ^ ((h >>> 13) | (h << 19)) ^ ((h >>> 22) | (h << 10))) + ((h & a) | (b & (h | a)))) | 0;
    f = (f + (((c >>> 6) | (c << 26)) ^ ((c >>> 11) | (c << 21)) ^ ((c >>> 25) | (c << 7))) + (e ^ (c & (d ^ e))) + k[i + 2]! + w2) | 0;
    b = (b + f) | 0;
    f = (f + (((g >>> 2) | (g << 30)) ^ ((g >>> 13) | (g << 19)) ^ ((g >>> 22) | (g << 10))) + ((g & h) | (a & (g | h)))) | 0;
    e = (e + (((b >>> 6) | (b << 26)) ^ ((b >>> 11) | (b << 21)) ^ ((b >>> 25) | (b << 7))) + (d ^ (b & (c ^ d))) + k[i + 3]! + w3) | 0;
    a = (a + e) | 0;
    e = (e + (((f >>> 2) | (f << 30)) ^ ((f >>> 13) | (f << 19)) ^ ((f >>> 22) | (f << 10))) + ((f & g) | (h & (f | g)))) | 0;
    d = (d + (((a >>> 6) | (a << 26)) ^ ((a >>> 11) | (a << 21)) ^ ((a >>> 25) | (a << 7))) + (c ^ (a & (b ^ c))) + k[i + 4]! + w4) | 0;
    h = (h + d) | 0;
    d = (d + (((e >>> 2) | (e << 30)) ^ ((e >>> 13) | (e << 19)) ^ ((e >>> 22) | (e << 10))) + ((e & f) | (g & (e | f)))) | 0;
    c = (c + (((h >>> 6) | (h << 26)) ^ ((h >>> 11) | (h << 21)) ^ ((h >>> 25) | (h << 7))) + (b ^ (h & (a ^ b))) + k[i + 5]! + w5) | 0;
    g = (g + c) | 0;
    c = (c + (((d >>> 2) | (d << 30)) ^ ((d >>> 13) | (d << 19)) ^ ((d >>> 22) | (d << 10))) + ((d & e) | (f & (d | e)))) | 0;
    b = (b + (((g >>> 6) | (g << 26)) ^ ((g >>> 11) | (g << 21)) ^ ((g >>> 25) | (g << 7))) + (a ^ (g & (h ^ a))) + k[i + 6]! + w6) | 0;
    f = (f + b) | 0;
    b = (b + (((c >>> 2) | (c << 30)) ^ ((c >>> 13) | (c << 19)) ^ ((c >>> 22) | (c << 10))) + ((c & d) | (e & (c | d)))) | 0;
    a = (a + (((f >>> 6) | (f << 26)) ^ ((f >>> 11) | (f << 21)) ^ ((f >>> 25) | (f << 7))) + (h ^ (f & (g ^ h))) + k[i + 7]! + w7) | 0;
    e = (e + a) | 0;
    a = (a + (((b >>> 2) | (b << 30)) ^ ((b >>> 13) | (b << 19)) ^ ((b >>> 22) | (b << 10))) + ((b & c) | (d & (b | c)))) | 0;
    h = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + k[i + 8]! + w8) | 0;
    d = (d + h) | 0;
    h = (h + (((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
    g = (g + (((d >>> 6) | (d << 26)) ^ ((d >>> 11) | (d << 21)) ^ ((d >>> 25) | (d << 7))) + (f ^ (d & (e ^ f))) + k[i + 9]! + w9) | 0;
    c = (c + g) | 0;
    g = (g + (((h >>> 2) | (h << 30)) ^ ((h >>> 13) | (h << 19)) ^ ((h >>> 22) | (h << 10))) + ((h & a) | (b & (h | a)))) | 0;
    f = (f + (((c >>> 6) | (c << 26)) ^ ((c >>> 11) | (c << 21)) ^ ((c >>> 25) | (c << 7))) + (e ^ (c & (d ^ e))) + k[i + 10]! + w10) | 0;
    b = (b + f) | 0;
    f = (f + (((g >>> 2) | (g << 30)) ^ ((g >>> 13) | (g << 19)) ^ ((g >>> 22) | (g << 10))) + ((g & h) | (a & (g | h)))) | 0;
    e = (e + (((b >>> 6) | (b << 26)) ^ ((b >>> 11) | (b << 21)) ^ ((b >>> 25) | (b << 7))) + (d ^ (b & (c ^ d))) + k[i + 11]! + w11) | 0;
    a = (a + e) | 0;
    e = (e + (((f >>> 2) | (f << 30)) ^ ((f >>> 13) | (f << 19)) ^ ((f >>> 22) | (f << 10))) + ((f & g) | (h & (f | g)))) | 0;
    d = (d + (((a >>> 6) | (a << 26)) ^ ((a >>> 11) | (a << 21)) ^ ((a >>> 25) | (a << 7))) + (c ^ (a & (b ^ c))) + k[i + 12]! + w12) | 0;
    h = (h + d) | 0;
    d = (d + (((e >>> 2) | (e << 30)) ^ ((e >>> 13) | (e << 19)) ^ ((e >>> 22) | (e << 10))) + ((e & f) | (g & (e | f)))) | 0;
    c = (c + (((h >>> 6) | (h << 26)) ^ ((h >>> 11) | (h << 21)) ^ ((h >>> 25) | (h << 7))) + (b ^ (h & (a ^ b))) + k[i + 13]! + w13) | 0;
    g = (g + c) | 0;
    c = (c + (((d >>> 2) | (d << 30)) ^ ((d >>> 13) | (d << 19)) ^ ((d >>> 22) | (d << 10))) + ((d & e) | (f & (d | e)))) | 0;
    b = (b + (((g >>> 6) | (g << 26)) ^ ((g >>> 11) | (g << 21)) ^ ((g >>> 25) | (g << 7))) + (a ^ (g & (h ^ a))) + k[i + 14]! + w14) | 0;
    f = (f + b) | 0;
    b = (b + (((c >>> 2) | (c << 30)) ^ ((c >>> 13) | (c << 19)) ^ ((c >>> 22) | (c << 10))) + ((c & d) | (e & (c | d)))) | 0;
    a = (a + (((f >>> 6) | (f << 26)) ^ ((f >>> 11) | (f << 21)) ^ ((f >>> 25) | (f << 7))) + (h ^ (f & (g ^ h))) + k[i + 15]! + w15) | 0;
    e = (e + a) | 0;
    a = (a + (((b >>> 2) | (b << 30)) ^ ((b >>> 13) | (b << 19)) ^ ((b >>> 22) | (b << 10))) + ((b & c) | (d & (b | c)))) | 0;
  }
  w[0] = s[0]! + a;
  w[1] = s[1]! + b;
  w[2] = s[2]! + c;
  w[3] = s[3]! + d;
  w[4] = s[4]! + e;
  w[5] = s[5]! + f;
  w[6] = s[6]! + g;
  w[7] = s[7]! + h;
}

/** Big-endian words of `bytes` from `offset` into `w[0..count-1]`. */
function load(w: Int32Array, bytes: Uint8Array, offset: number, count: number): void {
  for (let i = 0; i < count; i += 1, offset += 4) w[i] = (bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
}

/** SHA-256 of `bytes`, continued from `state` after `before` bytes already hashed; the digest lands in `w[0..7]`. */
function hashInto(state: Int32Array, before: number, bytes: Uint8Array, w: Int32Array, k: Int32Array): void {
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const bits = (before + bytes.length) * 8;
  const tail = new DataView(padded.buffer, padded.length - 8);
  tail.setUint32(0, Math.floor(bits / 2 ** 32));
  tail.setUint32(4, bits >>> 0);
  const chain = state.slice();
  for (let offset = 0; offset < padded.length; offset += 64) {
    load(w, padded, offset, 16);
    compress(chain, w, k);
    chain.set(w.subarray(0, 8));
  }
}

/**
 * PBKDF2 (RFC 8018) with HMAC-SHA-256: `keyLength` bytes derived from `password` and `salt` in
 * `iterations` rounds. Synchronous: a caller with a UI thread splits long work across calls.
 *
 * @example
 * ```ts
 * const key = pbkdf2Sha256(new TextEncoder().encode("password"), new TextEncoder().encode("salt"), 4096, 32);
 * ```
 */
export function pbkdf2Sha256(password: Uint8Array, salt: Uint8Array, iterations: number, keyLength: number): Uint8Array {
  const { k, iv } = constants();
  const w = new Int32Array(16);
  // HMAC (RFC 2104): a key longer than a block is hashed first; key XOR ipad and key XOR opad are one block each.
  const key = new Uint8Array(64);
  if (password.length > 64) {
    hashInto(iv, 0, password, w, k);
    for (let i = 0; i < 32; i += 1) key[i] = w[i >> 2]! >>> (24 - 8 * (i & 3));
  } else key.set(password);
  const state = (pad: number) => {
    load(w, key.map((byte) => byte ^ pad), 0, 16);
    compress(iv, w, k);
    return w.slice(0, 8);
  };
  const inner = state(0x36);
  const outer = state(0x5c);

  const out = new Uint8Array(keyLength);
  const block = new Uint8Array(salt.length + 4);
  block.set(salt);
  const t = new Int32Array(8);
  for (let index = 1; (index - 1) * 32 < keyLength; index += 1) {
    new DataView(block.buffer).setUint32(salt.length, index);
    // U1 = HMAC(password, salt ‖ INT(index)); its inner digest is already in w[0..7].
    hashInto(inner, 64, block, w, k);
    // Every message from here on is one 32-byte digest after the 64-byte key block: 96 bytes, one padded block.
    w.fill(0, 8);
    w[8] = 0x80000000 | 0;
    w[15] = (64 + 32) * 8;
    compress(outer, w, k);
    t.set(w.subarray(0, 8));
    for (let i = 1; i < iterations; i += 1) {
      compress(inner, w, k);
      compress(outer, w, k);
      t[0] = t[0]! ^ w[0]!;
      t[1] = t[1]! ^ w[1]!;
      t[2] = t[2]! ^ w[2]!;
      t[3] = t[3]! ^ w[3]!;
      t[4] = t[4]! ^ w[4]!;
      t[5] = t[5]! ^ w[5]!;
      t[6] = t[6]! ^ w[6]!;
      t[7] = t[7]! ^ w[7]!;
    }
    for (let i = 0; i < 32 && (index - 1) * 32 + i < keyLength; i += 1) out[(index - 1) * 32 + i] = t[i >> 2]! >>> (24 - 8 * (i & 3));
  }
  return out;
}
