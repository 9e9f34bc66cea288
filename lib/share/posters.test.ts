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
import { POSTER_SIZE } from './poster';

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
