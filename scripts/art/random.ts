/** The art's only source of chance: a PRNG seeded by the file's own name, so a re-run draws the same picture. */
export type Random = {
  (): number;
  /** A number between lo and hi. */
  range(lo: number, hi: number): number;
};

/** Seeded PRNG (string hash -> mulberry32). */
export function seeded(text: string): Random {
  let h = 1779033703 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = h >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Object.assign(next, { range: (lo: number, hi: number) => lo + (hi - lo) * next() });
}
