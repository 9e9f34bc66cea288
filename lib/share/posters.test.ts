import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import jsQR from 'jsqr';
import { seededTestDb } from '@/test/db';
import { makeSale, makeUsers } from '@/test/buying';
import { findChannelByKey, toThemeInfo } from '@/lib/channel/service';
import { findSale } from '@/lib/sale/service';
import { invalidate, tags } from '@/lib/cache/store';
import type { SaleRecord } from '@/lib/sale/schema';
import type { ChannelRow } from '@/lib/db/schema';
import { shareCodeOf } from './codes';
import { certificatePoster, POSTER_LIMITS, sharePoster, type PosterRequest } from './posters';
import { POSTER_COVER, POSTER_IMAGE_LIMITS, POSTER_SIZE } from './poster';
import { FolderMediaStore, type MediaStore } from '@/lib/media/store';
import { parseSkin } from '@/lib/channel/skin';

// The share poster (issue 36, docs/sharing.md): a PNG of the poster's size whose QR code reads the goods link with the
// sharer's `from`; forged codes get the plain link; the base is kept until the sale or the channel changes; drawing is
// limited.

const t0 = new Date('2026-11-20T02:00:00Z');
const db = seededTestDb(t0);
const ORIGIN = 'http://aurora.localhost:3000';

let channel: ChannelRow;
let sale: SaleRecord;
let users: number[] = [];

beforeAll(async () => {
  const made = await makeSale(db, { code: 'POSTER-T', amount: 100, limitPerUser: 10, now: t0 });
  channel = (await findChannelByKey('AURORA', db))!;
  sale = (await findSale({ db, now: t0, channelId: made.channelId }, String(made.saleId)))!;
  users = await makeUsers(db, 2, '7362');
});

function request(over: Partial<PosterRequest> = {}): PosterRequest {
  return {
    db,
    now: t0,
    channel: { id: channel.id, key: channel.key },
    theme: toThemeInfo(channel),
    origin: ORIGIN,
    sale,
    locale: 'en',
    from: null,
    ip: '203.0.113.9',
    ...over,
  };
}

async function png(over: Partial<PosterRequest> = {}): Promise<Buffer> {
  const answer = await sharePoster(request(over));
  if (answer.kind !== 'png') throw new Error(`limited: ${answer.retryAfterS}`);
  return answer.png;
}

async function qrOf(poster: Buffer): Promise<string | null> {
  const { data, info } = await sharp(poster).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data ?? null;
}

describe('the share poster', () => {
  it('is a PNG of the poster size whose QR code is the goods link with the sharer’s from', async () => {
    const code = await shareCodeOf(db, channel.id, users[0]!, t0);
    const poster = await png({ from: code });
    const meta = await sharp(poster).metadata();
    expect(meta).toMatchObject({ format: 'png', width: POSTER_SIZE.width, height: POSTER_SIZE.height });
    expect(await qrOf(poster)).toBe(`${ORIGIN}/goods/detail/${sale.id}?from=${code}`);
  }, 60_000);

  it('of a held edition is a PNG of the poster size whose QR code is its certificate’s public page', async () => {
    const code = 'Cert0000PosterTest0000';
    const { now, channel: at, theme, origin, locale, ip } = request();
    const answer = await certificatePoster({
      db,
      now,
      channel: at,
      theme,
      origin,
      locale,
      ip,
      certificate: {
        holdingId: '1',
        code,
        name: sale.commodity.name,
        cover: sale.commodity.cover,
        pictures: [],
        number: 7,
        amountNumber: 100,
        chainName: 'ledger',
        onChain: false,
        tokenId: null,
        txHash: null,
        acquired: { how: 'bought', at: t0.toISOString(), from: null },
        holder: '****0001',
        provenance: [],
      },
    });
    if (answer.kind !== 'png') throw new Error('limited');
    expect(await sharp(answer.png).metadata()).toMatchObject({ format: 'png', width: POSTER_SIZE.width, height: POSTER_SIZE.height });
    expect(await qrOf(answer.png)).toBe(`${ORIGIN}/cert/${code}`);
  }, 60_000);

  it('draws the plain link for a forged or unknown from, and for none', async () => {
    expect(await qrOf(await png({ from: 'abcdefghijklmnop' }))).toBe(`${ORIGIN}/goods/detail/${sale.id}`);
    expect(await qrOf(await png({ from: '"><script>' }))).toBe(`${ORIGIN}/goods/detail/${sale.id}`);
    expect(await qrOf(await png())).toBe(`${ORIGIN}/goods/detail/${sale.id}`);
  }, 60_000);

  it('keeps a poster until the sale or the channel changes', async () => {
    const code = await shareCodeOf(db, channel.id, users[1]!, t0);
    const first = await png({ from: code });
    expect(await png({ from: code })).toBe(first);
    invalidate(db, [tags.saleTerms(sale.id)]);
    const redrawn = await png({ from: code });
    expect(redrawn).not.toBe(first);
    invalidate(db, [tags.channelColours(channel.key)]);
    expect(await png({ from: code })).not.toBe(redrawn);
  }, 60_000);

  it('limits how many posters one address has drawn in an hour, and answers with the wait', async () => {
    const ip = '198.51.100.7';
    const limits = { ...POSTER_LIMITS, perIpPerHour: 3 };
    for (let i = 0; i < limits.perIpPerHour; i++) await png({ ip, limits, origin: `http://o${i}.example` });
    const answer = await sharePoster(request({ ip, limits, origin: 'http://one-more.example' }));
    expect(answer).toMatchObject({ kind: 'limited' });
    if (answer.kind === 'limited') expect(answer.retryAfterS).toBeGreaterThan(0);
    // What is already drawn is still answered.
    expect((await sharePoster(request({ ip, limits, origin: 'http://o0.example' }))).kind).toBe('png');
  }, 60_000);
});

describe('the poster’s pictures', () => {
  let folder = '';
  let store: FolderMediaStore;
  let uploaded: SaleRecord;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'poster-media-'));
    store = new FolderMediaStore(folder);
    const made = await makeSale(db, { code: 'POSTER-M', amount: 100, limitPerUser: 10, now: t0 });
    uploaded = (await findSale({ db, now: t0, channelId: made.channelId }, String(made.saleId)))!;
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  /** Stores a plain picture of one colour in the media store as the console's upload does (WebP under its content address). */
  async function upload(colour: { r: number; g: number; b: number }, width: number, height: number): Promise<string> {
    const bytes = await sharp({ create: { width, height, channels: 3, background: colour } })
      .webp()
      .toBuffer();
    const key = `${createHash('sha256').update(bytes).digest('hex')}.webp`;
    await store.put(key, bytes);
    return store.url(key);
  }

  /** The poster of the uploaded-cover sale, its cover `cover`, drawn anew (its base is dropped first). */
  async function posterWith(cover: string, over: Partial<PosterRequest> = {}, media: MediaStore = store): Promise<Buffer> {
    invalidate(db, [tags.saleTerms(uploaded.id)]);
    return png({ sale: { ...uploaded, commodity: { ...uploaded.commodity, cover } }, media, ...over });
  }

  async function pixel(poster: Buffer, x: number, y: number): Promise<[number, number, number]> {
    const { data, info } = await sharp(poster).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (y * info.width + x) * info.channels;
    return [data[at]!, data[at + 1]!, data[at + 2]!];
  }

  const hex = (rgb: [number, number, number]) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
  const coverMiddle = [POSTER_COVER.left + POSTER_COVER.size / 2, POSTER_COVER.top + POSTER_COVER.size / 2] as const;

  it('draws a cover uploaded to the media store, and the colour block when the upload is missing', async () => {
    const fallback = parseSkin(toThemeInfo(channel).skinJson).lightColor.toLowerCase();
    const red = await posterWith(await upload({ r: 220, g: 20, b: 30 }, 900, 900));
    const [r, g, b] = await pixel(red, ...coverMiddle);
    expect(r).toBeGreaterThan(200);
    expect(g + b).toBeLessThan(80);
    const missing = store.url(`${'0'.repeat(64)}.webp`);
    expect(hex(await pixel(await posterWith(missing), ...coverMiddle))).toBe(fallback);
  }, 60_000);

  it('goes without an upload the store is too slow to give, within its time bound', async () => {
    const slow: MediaStore = {
      put: (key, bytes) => store.put(key, bytes),
      delete: (key) => store.delete(key),
      keyOf: (url) => store.keyOf(url),
      url: (key) => store.url(key),
      get: () => new Promise(() => {}),
    };
    const fallback = parseSkin(toThemeInfo(channel).skinJson).lightColor.toLowerCase();
    const started = Date.now();
    const poster = await posterWith(await upload({ r: 220, g: 20, b: 30 }, 700, 700), {}, slow);
    expect(Date.now() - started).toBeLessThan(POSTER_IMAGE_LIMITS.timeoutMs + 10_000);
    expect(hex(await pixel(poster, ...coverMiddle))).toBe(fallback);
  }, 60_000);

  it('draws the channel’s logo in the brand line', async () => {
    const theme = toThemeInfo(channel);
    const blueLogo = await upload({ r: 20, g: 40, b: 230 }, 480, 120);
    const skin = { ...parseSkin(theme.skinJson), brandImg: blueLogo };
    const poster = await posterWith(sale.commodity.cover, { theme: { ...theme, skinJson: JSON.stringify(skin) } });
    // The logo's box starts at the poster's padding (40, 40) and is 60 high: a 4:1 logo is 240 × 60.
    const [r, g, b] = await pixel(poster, 40 + 120, 40 + 30);
    expect(b).toBeGreaterThan(200);
    expect(r + g).toBeLessThan(100);
    // Without a logo that can be read, the brand line shows the page's colour there.
    const none = { ...skin, brandImg: '/no-such-logo.png' };
    const plain = await posterWith(sale.commodity.cover, { theme: { ...theme, skinJson: JSON.stringify(none) } });
    expect(hex(await pixel(plain, 40 + 120, 40 + 2))).toBe(skin.pageBgColor.toLowerCase());
  }, 60_000);
});
