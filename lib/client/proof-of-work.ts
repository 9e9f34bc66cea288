import type { PowChallenge } from '../auth/schema';
/**
 * The browser half of the captcha's proof of work (server half and the cost reasoning: lib/auth/proof-of-work.ts).
 * The server sends `{algorithm, salt, challenge, maxNumber}`; the number n in [0, maxNumber] with
 * SHA-256(salt + n) = challenge is found here by trying them in order, and sent with the captcha's answer.
 *
 * Why a small synchronous SHA-256 and not `crypto.subtle.digest`: measured on 2026-11-24 in Debian's Chromium 156 on
 * this project's machines (an AMD EPYC core; the bench is described in lib/auth/proof-of-work.ts), the code below tries
 * 1.42 million numbers a second on the desktop and 0.37 million with the CPU throttled 4x, while `crypto.subtle.digest`
 * in batches of 256 awaited together manages 0.11 and 0.03 million, 13 times slower: each digest is a promise and a
 * trip to another thread, which costs far more than hashing one 64-byte block. It also works where `crypto.subtle` does
 * not exist (a page served over plain http on a LAN address), and it is about 2 kB gzipped, with no dependency.
 *
 * It runs on the main thread in slices of a few milliseconds, yielding between them, so a drag that happens while it
 * works stays smooth; the captcha starts it as soon as the challenge arrives, so the person rarely waits for it.
 */

/** The proof of work a captcha challenge carries (lib/auth/schema.ts, the server's answer). */
export type { PowChallenge };

/** SHA-256 round constants (FIPS 180-4 §4.2.2). */
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
/** Initial hash value (FIPS 180-4 §5.3.3). */
const H0 = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

/**
 * A reusable SHA-256 of short byte strings: `digest(bytes, length)` leaves the hash in `state` (eight 32-bit words,
 * big-endian word order as the hex reads). Buffers are allocated once, so the search loop allocates nothing.
 */
class Sha256 {
  readonly state = new Int32Array(8);
  private readonly w = new Int32Array(64);
  private block = new Uint8Array(64);

  digest(bytes: Uint8Array, length: number): void {
    const blocks = Math.ceil((length + 9) / 64);
    if (this.block.length < blocks * 64) this.block = new Uint8Array(blocks * 64);
    const block = this.block;
    block.set(bytes.subarray(0, length));
    block.fill(0, length, blocks * 64);
    block[length] = 0x80;
    // Message length in bits, big-endian, in the last 8 bytes (messages here are far below 2^32 bits).
    const bits = length * 8;
    const end = blocks * 64;
    block[end - 4] = bits >>> 24;
    block[end - 3] = (bits >>> 16) & 0xff;
    block[end - 2] = (bits >>> 8) & 0xff;
    block[end - 1] = bits & 0xff;
    this.state.set(H0);
    for (let offset = 0; offset < end; offset += 64) this.compress(block, offset);
  }

  private compress(block: Uint8Array, offset: number): void {
    const w = this.w;
    const s = this.state;
    for (let i = 0; i < 16; i++) {
      const j = offset + i * 4;
      w[i] = (block[j]! << 24) | (block[j + 1]! << 16) | (block[j + 2]! << 8) | block[j + 3]!;
    }
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15]!;
      const y = w[i - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let a = s[0]!;
    let b = s[1]!;
    let c = s[2]!;
    let d = s[3]!;
    let e = s[4]!;
    let f = s[5]!;
    let g = s[6]!;
    let h = s[7]!;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    s[0] = (s[0]! + a) | 0;
    s[1] = (s[1]! + b) | 0;
    s[2] = (s[2]! + c) | 0;
    s[3] = (s[3]! + d) | 0;
    s[4] = (s[4]! + e) | 0;
    s[5] = (s[5]! + f) | 0;
    s[6] = (s[6]! + g) | 0;
    s[7] = (s[7]! + h) | 0;
  }
}

/** ASCII bytes of a string; the salt is the server's, made of URL-safe characters. */
function ascii(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) throw new RangeError('salt must be ASCII');
    bytes[i] = code;
  }
  return bytes;
}

/** SHA-256 of an ASCII string, hex. For tests and the benchmark; the search below never formats hex. */
export function sha256Hex(text: string): string {
  const bytes = ascii(text);
  const sha = new Sha256();
  sha.digest(bytes, bytes.length);
  return Array.from(sha.state, (word) => (word >>> 0).toString(16).padStart(8, '0')).join('');
}

/** The hex target as eight signed 32-bit words, to compare with `Sha256.state` without formatting; null if not hex. */
function targetWords(hex: string): Int32Array | null {
  if (!/^[0-9a-f]{64}$/.test(hex)) return null;
  const words = new Int32Array(8);
  for (let i = 0; i < 8; i++) words[i] = parseInt(hex.slice(i * 8, i * 8 + 8), 16) | 0;
  return words;
}

/** Gives the browser a turn (input, paint) without setTimeout's 4 ms clamp on nested timers. */
function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof MessageChannel === 'undefined') {
      setTimeout(resolve, 0);
      return;
    }
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

export type SolveOptions = {
  /** Stops the search (a new picture arrived, the sheet closed): the promise then resolves to null. */
  signal?: AbortSignal;
  /** How long one slice may run before yielding (ms). */
  sliceMs?: number;
};

/** How many numbers are tried between two looks at the clock. */
const CHECK_EVERY = 512;

/**
 * Finds the number n in [0, maxNumber] with SHA-256(salt + n) = challenge. Resolves to null when none exists (a
 * challenge this client does not understand) or when `signal` aborts.
 */
export async function solvePow(challenge: PowChallenge, options: SolveOptions = {}): Promise<number | null> {
  const target = targetWords(challenge.challenge);
  if (challenge.algorithm !== 'SHA-256' || !target || !Number.isSafeInteger(challenge.maxNumber) || challenge.maxNumber < 0) return null;
  const salt = ascii(challenge.salt);
  const sliceMs = options.sliceMs ?? 8;
  // The message is the salt followed by up to 16 decimal digits; the digits are rewritten in place for each try.
  const message = new Uint8Array(salt.length + 16);
  message.set(salt);
  const digits = new Uint8Array(16);
  const sha = new Sha256();
  const t0 = target[0]!;

  let n = 0;
  while (n <= challenge.maxNumber) {
    if (options.signal?.aborted) return null;
    const sliceEnd = performance.now() + sliceMs;
    do {
      const stop = Math.min(challenge.maxNumber, n + CHECK_EVERY - 1);
      for (; n <= stop; n++) {
        // Decimal digits of n, most significant first.
        let count = 0;
        let rest = n;
        do {
          digits[count++] = 48 + (rest % 10);
          rest = Math.floor(rest / 10);
        } while (rest > 0);
        for (let i = 0; i < count; i++) message[salt.length + i] = digits[count - 1 - i]!;
        sha.digest(message, salt.length + count);
        const state = sha.state;
        if (state[0] !== t0) continue;
        let same = true;
        for (let i = 1; i < 8 && same; i++) same = state[i] === target[i];
        if (same) return n;
      }
    } while (n <= challenge.maxNumber && performance.now() < sliceEnd);
    if (n <= challenge.maxNumber) await yieldToBrowser();
  }
  return null;
}
