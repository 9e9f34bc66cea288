// Draws the demo's brand and goods art as plain SVG into public/goods and public/brands: geometry, gradients and text
// only, nothing fetched, nothing copied. Run from the project folder:
//   npm run art
// The drawing is in scripts/art/ (index.ts says what it draws and from what; shapes.ts and figures.ts are the pieces
// the pictures share). lib/demo/art.test.ts checks the files against the seed; scripts/generate-art.test.ts checks
// that the committed files are exactly what this draws.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeArt } from './art/index.ts';

const PUBLIC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'public');

const written = [...writeArt(PUBLIC)].map(([rel, svg]) => [rel, Buffer.byteLength(svg)]);
const largest = written.reduce((a, b) => (b[1] > a[1] ? b : a));
const total = written.reduce((sum, [, bytes]) => sum + bytes, 0);
console.log(
  `wrote ${written.length} SVG files (${readdirSync(path.join(PUBLIC, 'brands')).length} brand folders, ${Math.round(total / 1024)} KiB) under ${path.relative(process.cwd(), PUBLIC) || PUBLIC}; largest ${largest[0]} (${largest[1]} bytes)`,
);
