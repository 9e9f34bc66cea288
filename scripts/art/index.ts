/**
 * The demo's art (docs/decisions.md, "Demo art"), drawn from the seed data (lib/demo/seed-data.ts): every collectible
 * the seed creates gets two pictures of its own, goods/<code>.svg and <code>-2.svg, captioned with its name; every
 * channel gets a brand folder of its own, brands/<key>/, in its palette and with its brand name (and brands/default/,
 * the fallback skin's). A collectible without a drawing stops the drawing, and so does a drawing no collectible uses.
 * No text that a locale would change is drawn into any image. Deterministic: every random choice comes from a PRNG
 * seeded by the file's own name, so drawing again writes the same bytes (scripts/generate-art.test.ts checks it).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_SKIN } from '../../lib/channel/skin';
import { channelArt, demoCollectibles, SEED_CHANNELS } from '../../lib/demo/seed-data';
import { AVATARS } from './avatars';
import { brandImages, type Brand } from './brands';
import { GOODS } from './goods';
import { goodsPicture } from './goods';

/** The folders under public/ that the art fills, and clears first. */
export const ART_FOLDERS = ['goods', 'brands'] as const;

/** Brand folders: the fallback skin's (DEFAULT_SKIN) and one per demo channel, coloured from its palette. */
function brands(): [string, Brand][] {
  return [
    ['default', { name: 'Storefront', primary: DEFAULT_SKIN.color1, accent: '#9ca3af', page: DEFAULT_SKIN.pageBgColor }],
    ...SEED_CHANNELS.map((c): [string, Brand] => [
      channelArt(c),
      { name: c.brandName, primary: c.palette.color1, accent: c.palette.color2, page: c.palette.pageBgColor },
    ]),
  ];
}

/** Every picture, as its path under public/ and its SVG text. */
export function drawArt(): Map<string, string> {
  const collectibles = demoCollectibles();
  const problems = [
    ...collectibles.filter((c) => !GOODS[c.code]).map((c) => `no drawing for ${c.code} (${c.name}): add one to GOODS`),
    ...Object.keys(GOODS)
      .filter((code) => !collectibles.some((c) => c.code === code))
      .map((code) => `GOODS has a drawing for ${code}, which the seed does not create`),
    ...collectibles
      .filter((c, i) => collectibles.findIndex((d) => d.code === c.code) !== i)
      .map((c) => `two collectibles share the code ${c.code}: each needs pictures of its own`),
  ];
  if (problems.length) throw new Error(problems.join('\n'));

  const files = new Map<string, string>();
  for (const [key, brand] of brands())
    for (const [name, svg] of Object.entries(brandImages(key, brand))) files.set(`brands/${key}/${name}`, svg);
  for (const [name, svg] of Object.entries(AVATARS)) files.set(`brands/avatars/${name}.svg`, svg);
  for (const { code, name } of collectibles) {
    const [cover, second] = GOODS[code]!;
    files.set(`goods/${code}.svg`, goodsPicture(code, name, cover, 1));
    files.set(`goods/${code}-2.svg`, goodsPicture(code, name, second, 2));
  }
  return files;
}

/** Draws every picture into `publicDir` (goods/ and brands/), cleared first so pictures of what is gone do not linger. */
export function writeArt(publicDir: string): Map<string, string> {
  const files = drawArt();
  for (const folder of ART_FOLDERS) rmSync(path.join(publicDir, folder), { recursive: true, force: true });
  for (const [rel, svg] of files) {
    const file = path.join(publicDir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, svg);
  }
  return files;
}
