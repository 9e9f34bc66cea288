import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { PNG } from 'pngjs';
import sharp from 'sharp';
import { storeImage } from '@/lib/media/image';
import { FolderMediaStore } from '@/lib/media/store';
import { seededTestDb } from '@/test/db';
import { channels } from '@/lib/db/schema';
import { SEED_CHANNELS } from '@/lib/demo/seed-data';
import { findChannelByKey } from '@/lib/channel/service';
import { brandIconResponse } from './serve';
import { readIco } from './ico';
import { channelIconLinks } from './links';
import { markSquare } from './render';
import { jpegSize, pngSize, readBrandImage, svgSize } from './source';

const db = seededTestDb(new Date('2026-11-22T08:00:00Z'));

// The uploads of the skin editor (issue 31, "Media storage"), in a folder of this test's own.
let mediaRoot: string;
let store: FolderMediaStore;
beforeAll(async () => {
  mediaRoot = await mkdtemp(path.join(tmpdir(), 'icon-media-'));
  store = new FolderMediaStore(mediaRoot);
});
afterAll(() => rm(mediaRoot, { recursive: true, force: true }));

function get(host: string, file: string, headers: Record<string, string> = {}): Promise<Response> {
  return brandIconResponse(
    new Request(`http://127.0.0.1:3000/api/icon/${file}`, { headers: { host, ...headers } }),
    file,
    (key) => findChannelByKey(key, db),
    store,
  );
}

/** A square of one colour, as an operator's upload. */
function square(side: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width: side, height: side, channels: 4, background: colour } })
    .png()
    .toBuffer();
}

/** Runs `body` with CHAIN's skin changed by `change`, then puts the skin back. */
async function withChainSkin(change: Record<string, string>, body: () => Promise<void>): Promise<void> {
  const [row] = await db.select().from(channels).where(eq(channels.key, 'CHAIN'));
  const skin = JSON.parse(row!.skinJson) as Record<string, unknown>;
  await db
    .update(channels)
    .set({ skinJson: JSON.stringify({ ...skin, ...change }) })
    .where(eq(channels.key, 'CHAIN'));
  try {
    await body();
  } finally {
    await db.update(channels).set({ skinJson: row!.skinJson }).where(eq(channels.key, 'CHAIN'));
  }
}

const pixel = (png: PNG, x: number, y: number) => [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 4)];

async function pngOf(response: Response): Promise<PNG> {
  return PNG.sync.read(Buffer.from(await response.arrayBuffer()));
}

describe('channel icons (GET /api/icon/:file, /favicon.ico)', () => {
  it.each(SEED_CHANNELS.map((c) => [c.key, c.host] as const))(
    '%s: a 180 px touch icon, a 192 px icon and a 16/32/48 px favicon.ico',
    async (_, host) => {
      const touch = await get(`${host}:3000`, 'apple-touch-icon.png');
      expect(touch.status).toBe(200);
      expect(touch.headers.get('content-type')).toBe('image/png');
      const touchPng = await pngOf(touch);
      expect([touchPng.width, touchPng.height]).toEqual([180, 180]);
      // iOS fills transparency with black: the touch icon is opaque, its corner the channel's page colour.
      expect(touchPng.data[3]).toBe(255);

      const icon = await get(`${host}:3000`, 'icon.png');
      expect(icon.status).toBe(200);
      const iconPng = await pngOf(icon);
      expect([iconPng.width, iconPng.height]).toEqual([192, 192]);

      const ico = await get(`${host}:3000`, 'favicon.ico');
      expect(ico.status).toBe(200);
      expect(ico.headers.get('content-type')).toBe('image/x-icon');
      const images = readIco(Buffer.from(await ico.arrayBuffer()));
      expect(images.map((i) => i.size)).toEqual([16, 32, 48]);
      for (const { size, data } of images) {
        const png = PNG.sync.read(data);
        expect([png.width, png.height]).toEqual([size, size]);
      }
    },
  );

  it('draws each channel from its own brand image', async () => {
    const [aurora, dark] = await Promise.all([get('aurora.localhost', 'icon.png'), get('dark.localhost', 'icon.png')]);
    const a = Buffer.from(await aurora.arrayBuffer());
    const d = Buffer.from(await dark.arrayBuffer());
    expect(a.equals(d)).toBe(false);
  });

  it('answers 404, not an error, for an unknown host or file', async () => {
    for (const file of ['favicon.ico', 'icon.png', 'apple-touch-icon.png']) {
      const response = await get('nope.localhost:3000', file);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    }
    expect((await get('bad_host!.localhost', 'favicon.ico')).status).toBe(404);
    expect((await get('aurora.localhost', 'icon.svg')).status).toBe(404);
    expect((await get('aurora.localhost', '..%2Fpackage.json')).status).toBe(404);
  });

  it('is cacheable and revalidates with its ETag', async () => {
    const first = await get('aurora.localhost', 'apple-touch-icon.png');
    expect(first.headers.get('cache-control')).toBe('public, max-age=86400');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const again = await get('aurora.localhost', 'apple-touch-icon.png', { 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('falls back to the brand initial on the channel colour when the brand image is not a local file', async () => {
    await withChainSkin({ brandImg: 'https://cdn.example.com/chain.png' }, async () => {
      const png = await pngOf(await get('chain.localhost', 'apple-touch-icon.png'));
      expect([png.width, png.height]).toEqual([180, 180]);
      // The corner is the channel's colour1 (#3730a3), not the page colour of the drawn-mark style.
      expect(pixel(png, 0, 0)).toEqual([0x37, 0x30, 0xa3, 255]);
    });
  });

  it('draws the icons from the favicon source an operator uploaded, over the logo (issue 31)', async () => {
    const favicon = await storeImage(await square(600, '#16a34a'), 'favicon', store);
    await withChainSkin({ faviconImg: favicon.url }, async () => {
      const icon = await pngOf(await get('chain.localhost', 'icon.png'));
      // The upload's green fills the icon, edge to edge: neither CHAIN's logo nor its monogram.
      for (const [x, y] of [
        [4, 4],
        [96, 96],
        [187, 187],
      ] as const) {
        const [r, g, b, a] = pixel(icon, x, y);
        expect(Math.abs(r! - 0x16) + Math.abs(g! - 0xa3) + Math.abs(b! - 0x4a)).toBeLessThan(12);
        expect(a).toBe(255);
      }
      const images = readIco(Buffer.from(await (await get('chain.localhost', 'favicon.ico')).arrayBuffer()));
      expect(pixel(PNG.sync.read(images[0]!.data), 8, 8).slice(0, 3)).toEqual(pixel(icon, 96, 96).slice(0, 3));
    });
  });

  it("draws the icons from an uploaded logo's mark, not the monogram", async () => {
    const logo = await storeImage(await square(300, '#ea580c'), 'logo', store);
    await withChainSkin({ brandImg: logo.url }, async () => {
      const [r, g, b, a] = pixel(await pngOf(await get('chain.localhost', 'icon.png')), 96, 96);
      expect(Math.abs(r! - 0xea) + Math.abs(g! - 0x58) + Math.abs(b! - 0x0c)).toBeLessThan(12);
      expect(a).toBe(255);
    });
  });

  it('falls back to the monogram when an upload the skin names is no longer stored', async () => {
    await withChainSkin({ faviconImg: `/media/${'0'.repeat(64)}.webp` }, async () => {
      const png = await pngOf(await get('chain.localhost', 'apple-touch-icon.png'));
      expect(pixel(png, 0, 0)).toEqual([0x37, 0x30, 0xa3, 255]);
    });
  });
});

describe('the mark of a brand image', () => {
  it("is a wordmark's left square trimmed to what is drawn (the demo's 56-unit mark at 12, 12)", async () => {
    const image = await readBrandImage('/brands/aurora/brand.svg');
    expect(image).toMatchObject({ width: 240, height: 80 });
    const mark = await markSquare(image!);
    // One probe pixel is 80/128 of a unit.
    expect(mark.x).toBeCloseTo(12, 0);
    expect(mark.y).toBeCloseTo(12, 0);
    expect(mark.side).toBeGreaterThan(55);
    expect(mark.side).toBeLessThan(58);
  });

  it('is read only from files under public/', async () => {
    expect(await readBrandImage('https://cdn.example.com/a.svg')).toBeNull();
    expect(await readBrandImage('//cdn.example.com/a.svg')).toBeNull();
    expect(await readBrandImage('/../package.json')).toBeNull();
    expect(await readBrandImage('/%2e%2e/next.config.ts')).toBeNull();
    expect(await readBrandImage('/brands/aurora/missing.svg')).toBeNull();
  });

  it('has its size read from SVG, PNG and JPEG headers', () => {
    expect(svgSize('<svg xmlns="http://www.w3.org/2000/svg" width="240px" height="80">')).toEqual({ width: 240, height: 80 });
    expect(svgSize('<svg viewBox="0 0 64 32" width="100%">')).toEqual({ width: 64, height: 32 });
    expect(svgSize('<html>')).toBeNull();
    const png = PNG.sync.write(new PNG({ width: 7, height: 3 }));
    expect(pngSize(png)).toEqual({ width: 7, height: 3 });
    // SOI, an APP0 segment of 4 bytes, then SOF0 with height 0x0102 and width 0x0304.
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 1, 2, 3, 4, 3, 0, 0, 0, 0]);
    expect(jpegSize(jpeg)).toEqual({ width: 0x0304, height: 0x0102 });
  });
});

describe('the page head links', () => {
  it('name the favicon, the PNG icon and the touch icon, versioned by what they are drawn from', () => {
    const skin = { brandImg: '/brands/aurora/brand.svg', color1: '#0f766e', pageBgColor: '#eef6f5', buttonColor: '#fff' };
    const links = channelIconLinks('Aurora', skin as never) as { icon: { url: string; sizes: string }[]; apple: { url: string }[] };
    expect(links.icon.map((l) => [l.url.split('?')[0], l.sizes])).toEqual([
      ['/favicon.ico', '16x16 32x32 48x48'],
      ['/api/icon/icon.png', '192x192'],
    ]);
    expect(links.apple[0]!.url).toMatch(/^\/api\/icon\/apple-touch-icon\.png\?v=\w+$/);
    const other = channelIconLinks('Aurora', { ...skin, brandImg: '/brands/dark/brand.svg' } as never) as typeof links;
    expect(other.apple[0]!.url).not.toBe(links.apple[0]!.url);
    // A favicon source uploaded: new URLs, so browsers fetch the icons drawn from it.
    const favicon = channelIconLinks('Aurora', { ...skin, faviconImg: `/media/${'a'.repeat(64)}.webp` } as never) as typeof links;
    expect(favicon.icon[0]!.url).not.toBe(links.icon[0]!.url);
  });
});
