import fs from 'node:fs';
import path from 'node:path';
import { asc } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { campaigns, chainCampaigns, channels, commodities } from '../db/schema';
import { parseSkin, SKIN_IMAGE_FIELDS } from '../channel/skin';
import { demoCollectibles } from './seed-data';

// The demo's rule for pictures (docs/decisions.md, "Demo art"): in a collectibles store the picture is the product, so
// every collectible has pictures of its own, captioned with its name; every channel has brand images of its own; and no
// image carries text that a locale would change. The pictures come from scripts/generate-art.mjs (npm run art).

const db = seededTestDb(new Date('2026-11-22T08:00:00Z'));

const PUBLIC = path.join(process.cwd(), 'public');

function unescape(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The title and the texts drawn in an SVG file under public/, or null when the file is missing. */
function readSvg(file: string): { title: string | null; captions: string[]; texts: string[] } | null {
  const full = path.join(PUBLIC, file);
  if (!file.endsWith('.svg') || !fs.existsSync(full)) return null;
  const svg = fs.readFileSync(full, 'utf8');
  const title = /<title>([^<]*)<\/title>/.exec(svg)?.[1];
  const texts = [...svg.matchAll(/<text\b([^>]*)>([^<]*)<\/text>/g)].map(([, attributes, content]) => ({
    caption: /\bclass="caption"/.test(attributes!),
    content: unescape(content!),
  }));
  return {
    title: title === undefined ? null : unescape(title),
    captions: texts.filter((t) => t.caption).map((t) => t.content),
    texts: texts.map((t) => t.content),
  };
}

/** Files used by more than one owner (collectible or channel), with their owners. */
function sharedFiles(owners: { owner: string; files: string[] }[]): { file: string; owners: string[] }[] {
  const byFile = new Map<string, Set<string>>();
  for (const { owner, files } of owners) for (const file of files) byFile.set(file, (byFile.get(file) ?? new Set()).add(owner));
  return [...byFile]
    .filter(([, set]) => set.size > 1)
    .map(([file, set]) => ({ file, owners: [...set].sort() }))
    .sort((a, b) => a.file.localeCompare(b.file));
}

describe('demo art', () => {
  it('finds a shared picture when two items share one (the check below can fail)', () => {
    expect(
      sharedFiles([
        { owner: 'Afterglow Owl', files: ['/goods/crystal-owl.svg'] },
        { owner: 'Crystal Owl', files: ['/goods/crystal-owl.svg', '/goods/crystal-owl-2.svg'] },
        { owner: 'Frost Lynx', files: ['/goods/frost-lynx.svg'] },
      ]),
    ).toEqual([{ file: '/goods/crystal-owl.svg', owners: ['Afterglow Owl', 'Crystal Owl'] }]);
  });

  it('knows every collectible the seed creates, so the art generator draws each of them', async () => {
    const created = (await db.select({ code: commodities.code }).from(commodities)).map((c) => c.code).sort();
    expect(
      demoCollectibles()
        .map((c) => c.code)
        .sort(),
    ).toEqual(created);
  });

  it('gives every collectible pictures of its own, captioned and titled with its name', async () => {
    const rows = await db
      .select({ code: commodities.code, name: commodities.name, cover: commodities.cover, pictures: commodities.actualPicture })
      .from(commodities)
      .orderBy(asc(commodities.id));
    expect(rows.length).toBeGreaterThan(20);
    const owners = rows.map((c) => ({ owner: `${c.code} (${c.name})`, files: [...new Set([c.cover, ...c.pictures])] }));
    expect(sharedFiles(owners)).toEqual([]);

    const wrong: string[] = [];
    for (const c of rows) {
      expect({ code: c.code, pictures: c.pictures.length }).toEqual({ code: c.code, pictures: 2 });
      for (const file of new Set([c.cover, ...c.pictures])) {
        const svg = readSvg(file);
        if (!svg) {
          wrong.push(`${c.name}: ${file} is missing`);
          continue;
        }
        if (svg.title !== c.name) wrong.push(`${c.name}: ${file} is titled ${JSON.stringify(svg.title)}`);
        if (svg.captions.length !== 1 || svg.captions[0] !== c.name) wrong.push(`${c.name}: ${file} reads ${JSON.stringify(svg.captions)}`);
        // Any other text is a sign, never a word (the mystery box's "?").
        const words = svg.texts.filter((t) => t !== c.name && /\p{L}/u.test(t));
        if (words.length) wrong.push(`${c.name}: ${file} also reads ${JSON.stringify(words)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('shows a campaign with a picture of what it gives', async () => {
    const covers = [
      ...(await db.select({ cover: campaigns.cover }).from(campaigns)),
      ...(await db.select({ cover: chainCampaigns.cover }).from(chainCampaigns)),
    ].map((c) => c.cover);
    const pictures = new Set((await db.select({ cover: commodities.cover }).from(commodities)).map((c) => c.cover));
    expect(covers.length).toBeGreaterThan(0);
    expect(covers.filter((cover) => !pictures.has(cover))).toEqual([]);
  });

  it('gives every channel brand images of its own, with no words but its brand name', async () => {
    const rows = await db
      .select({ key: channels.key, brandName: channels.brandName, skinJson: channels.skinJson })
      .from(channels)
      .orderBy(asc(channels.key));
    const skins = rows.map((c) => ({ ...c, files: SKIN_IMAGE_FIELDS.map((field) => parseSkin(c.skinJson)[field]) }));
    expect(sharedFiles(skins.map((c) => ({ owner: c.key, files: c.files })))).toEqual([]);

    const wrong: string[] = [];
    for (const { key, brandName, files } of skins) {
      const brandWords = new Set(brandName.toLowerCase().split(/\s+/));
      for (const file of files) {
        const svg = readSvg(file);
        if (!svg) {
          wrong.push(`${key}: ${file} is missing`);
          continue;
        }
        for (const text of [...svg.texts, ...(svg.title === null ? [] : [svg.title])]) {
          if (/digital collectibles/i.test(text)) wrong.push(`${key}: ${file} reads ${JSON.stringify(text)}`);
          const foreign = text
            .toLowerCase()
            .split(/\s+/)
            .filter((word) => /\p{L}/u.test(word) && !brandWords.has(word));
          if (foreign.length) wrong.push(`${key}: ${file} reads ${JSON.stringify(text)}, not its brand name ${JSON.stringify(brandName)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
