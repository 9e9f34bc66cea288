/**
 * `npx tsx scripts/screens-compare.ts BEFORE_DIR AFTER_DIR [--diff DIR] [--threshold 24]`: compares two runs of
 * scripts/screens.ts page by page (issue 30: a refactor leaves the pages as they were, apart from live data). Prints one
 * line per page: same, differs N% (and writes a diff PNG: the after picture greyed, differing pixels red), size
 * changed, or missing on one side; and where a page landed elsewhere (manifest.json). It is a report: it exits 0.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv.splice(i, 2)[1] : undefined;
};
const threshold = Number(option('--threshold') ?? 24);
const [beforeDir, afterDir] = argv;
if (!beforeDir || !afterDir) {
  console.error('usage: npx tsx scripts/screens-compare.ts BEFORE_DIR AFTER_DIR [--diff DIR] [--threshold 24]');
  process.exit(2);
}
const diffDir = option('--diff') ?? path.join(afterDir, 'diff');

type Shot = { file: string; asked: string; landed: string; error?: string };

function landings(dir: string): Map<string, Shot> {
  const file = path.join(dir, 'manifest.json');
  if (!existsSync(file)) return new Map();
  return new Map((JSON.parse(readFileSync(file, 'utf8')) as Shot[]).map((s) => [s.file, s]));
}

/** The share of pixels whose largest channel difference passes `threshold` (0–255), and a picture of where. */
function compare(a: PNG, b: PNG): { share: number; diff: PNG; box: [number, number, number, number] | null } {
  const width = Math.max(a.width, b.width);
  const height = Math.max(a.height, b.height);
  const diff = new PNG({ width, height });
  let differing = 0;
  let box: [number, number, number, number] | null = null;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const inA = x < a.width && y < a.height;
      const inB = x < b.width && y < b.height;
      const ia = (y * a.width + x) * 4;
      const ib = (y * b.width + x) * 4;
      let delta = 255;
      if (inA && inB) {
        delta = Math.max(
          Math.abs(a.data[ia]! - b.data[ib]!),
          Math.abs(a.data[ia + 1]! - b.data[ib + 1]!),
          Math.abs(a.data[ia + 2]! - b.data[ib + 2]!),
          Math.abs(a.data[ia + 3]! - b.data[ib + 3]!),
        );
      }
      if (delta > threshold) {
        differing++;
        diff.data[o] = 255;
        diff.data[o + 1] = 0;
        diff.data[o + 2] = 0;
        diff.data[o + 3] = 255;
        box = box ? [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)] : [x, y, x, y];
      } else {
        // The after picture, faint, so the red reads against the page it belongs to.
        const src = inB ? b.data : a.data;
        const i = inB ? ib : ia;
        const grey = (src[i]! + src[i + 1]! + src[i + 2]!) / 3;
        const faint = 255 - (255 - grey) * 0.25;
        diff.data[o] = faint;
        diff.data[o + 1] = faint;
        diff.data[o + 2] = faint;
        diff.data[o + 3] = 255;
      }
    }
  }
  return { share: differing / (width * height), diff, box };
}

const pngs = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.png')) : []);
const before = new Set(pngs(beforeDir));
const after = new Set(pngs(afterDir));
const beforeLanded = landings(beforeDir);
const afterLanded = landings(afterDir);
const all = [...new Set([...before, ...after])].sort();
const counts = { same: 0, differs: 0, missing: 0 };
mkdirSync(diffDir, { recursive: true });

for (const file of all) {
  const name = file.replace(/\.png$/, '');
  const wentB = beforeLanded.get(file)?.landed;
  const wentA = afterLanded.get(file)?.landed;
  const landing = wentB !== undefined && wentA !== undefined && wentB !== wentA ? `  (landed ${wentB} before, ${wentA} after)` : '';
  if (!before.has(file) || !after.has(file)) {
    counts.missing++;
    console.log(`${name.padEnd(48)} missing ${before.has(file) ? 'after' : 'before'}${landing}`);
    continue;
  }
  const a = PNG.sync.read(readFileSync(path.join(beforeDir, file)));
  const b = PNG.sync.read(readFileSync(path.join(afterDir, file)));
  // Most pages are the same to the byte: no need to walk their pixels.
  const identical = a.width === b.width && a.height === b.height && a.data.equals(b.data);
  const { share, diff, box } = identical ? { share: 0, diff: null, box: null } : compare(a, b);
  const size = a.width !== b.width || a.height !== b.height ? `  size ${a.width}x${a.height} -> ${b.width}x${b.height}` : '';
  if (share === 0 && !size) {
    counts.same++;
    console.log(`${name.padEnd(48)} same${landing}`);
    continue;
  }
  counts.differs++;
  if (diff) writeFileSync(path.join(diffDir, file), PNG.sync.write(diff));
  // The box in CSS pixels (the phone draws 3 device pixels to one), to find the change on the page.
  const css = box
    ? `  area x ${Math.floor(box[0] / 3)}-${Math.ceil(box[2] / 3)}, y ${Math.floor(box[1] / 3)}-${Math.ceil(box[3] / 3)} css px`
    : '';
  console.log(`${name.padEnd(48)} differs ${(share * 100).toFixed(2)}%${size}${css}${landing}`);
}
console.log(`\n${counts.same} same, ${counts.differs} differ (diffs in ${diffDir}), ${counts.missing} missing on one side`);
