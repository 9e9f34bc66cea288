import { eq, sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type { PGlite } from '@electric-sql/pglite';
import postgres, { type Sql } from 'postgres';
import * as schema from '@/lib/db/schema';
import { channels, wechatTickets, type ChannelRow } from '@/lib/db/schema';
import type { Db } from '@/lib/db/client';
import { parseEnv, type Env } from '@/lib/env';
import { AppError } from '@/lib/procedure/errors';
import { renderMessage } from '@/lib/procedure/messages';
import { seededTestDb } from '@/test/db';
import { MP_APP_ID, MP_SECRET, startFakeWechatMp, type FakeWechatMp } from '@/test/wechat-mp';
import { wechatAccountOf } from './account';
import { jsConfig } from './service';
import { jsSdkSignature } from './signature';
import { jsapiTicket, REFRESH_BEFORE_MS } from './ticket';

// The WeChat share card's wx.config (issue 36; docs/wechat.md): WeChat's published signature, the ticket fetched once
// for many pages and many processes, refreshed before it expires, and the refusals a page meets. Runs on PGlite and,
// with PG_TEST_PORT, on PostgreSQL.

const t0 = new Date('2026-11-28T08:00:00Z');
const db = seededTestDb(t0);

let fake: FakeWechatMp;
let e: Env;
let aurora: ChannelRow;

/**
 * Another process: its own handle on the same database, so its own single flight; on PostgreSQL its own client and
 * connections too (closed after the file).
 */
const others: Sql[] = [];
async function otherProcess(): Promise<Db> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const [{ name }] = (await db.execute(sql`select current_database() as name`)) as unknown as [{ name: string }];
    const own = new URL(url);
    own.pathname = `/${name}`;
    const client = postgres(own.toString(), { max: 5, onnotice: () => {} });
    others.push(client);
    return drizzlePostgres(client, { schema }) as unknown as Db;
  }
  const client = (db as unknown as { $client: PGlite }).$client;
  return drizzlePglite(client, { schema }) as unknown as Db;
}

async function refusal(promise: Promise<unknown>): Promise<{ code: number; text: string; field: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) {
      return { code: error.code, text: error.text ? renderMessage(error.text, 'en') : error.message, field: error.data?.field };
    }
    throw error;
  }
  throw new Error('expected a refusal');
}

beforeAll(async () => {
  fake = await startFakeWechatMp({ delayMs: 30 });
  e = parseEnv({ NODE_ENV: 'test', WECHAT_MP_SECRETS: `${MP_APP_ID}:${MP_SECRET}`, WECHAT_API_BASE: fake.origin }, { forStart: false });
  [aurora] = (await db.update(channels).set({ wechatAppId: MP_APP_ID }).where(eq(channels.key, 'AURORA')).returning()) as [ChannelRow];
});
afterAll(async () => {
  await fake.close();
  await Promise.all(others.map((client) => client.end()));
});

beforeEach(async () => {
  await db.delete(wechatTickets);
  fake.counts.token = 0;
  fake.counts.ticket = 0;
});

describe('the signature', () => {
  it("equals WeChat's published example (JS-SDK documentation, appendix 1)", () => {
    expect(
      jsSdkSignature({
        ticket: 'sM4AOVdWfPE4DxkXGEs8VMCPGGVi4C3VM0P37wVUCFvkVAy_90u5h9nbSlYy3-Sl-HhTdfl2fzFy1AOcHKP7qg',
        nonceStr: 'Wm3WZYTPz0wzccnW',
        timestamp: 1414587457,
        url: 'http://mp.weixin.qq.com?params=value',
      }),
    ).toBe('0f9de62fce790f9a083d5c99e95740ceb90c27ed');
  });
});

describe('wx.config', () => {
  it('signs a page of the channel with the ticket WeChat issued, its URL as the page has it, up to the #', async () => {
    const url = 'http://aurora.localhost/goods/detail/1?from=abc';
    const config = await jsConfig({ db, now: t0 }, aurora, `${url}#gallery`, e);
    expect(config.appId).toBe(MP_APP_ID);
    expect(config.timestamp).toBe(Math.floor(t0.getTime() / 1000));
    expect(config.nonceStr).toMatch(/^[A-Za-z0-9]{16}$/);
    const ticket = fake.tickets.get(MP_APP_ID)!;
    expect(config.signature).toBe(jsSdkSignature({ ticket, nonceStr: config.nonceStr, timestamp: config.timestamp, url }));
    // The URL is signed as the browser has it: no added slash, no re-escaping.
    const bare = await jsConfig({ db, now: t0 }, aurora, 'http://aurora.localhost?x=%E4%B8%AD', e);
    expect(bare.signature).toBe(
      jsSdkSignature({ ticket, nonceStr: bare.nonceStr, timestamp: bare.timestamp, url: 'http://aurora.localhost?x=%E4%B8%AD' }),
    );
  });

  it('fetches the token and the ticket once for 50 pages asking at once', async () => {
    const configs = await Promise.all(
      Array.from({ length: 50 }, (_, i) => jsConfig({ db, now: t0 }, aurora, `http://aurora.localhost/goods/detail/${i}`, e)),
    );
    expect(configs).toHaveLength(50);
    expect(fake.counts).toEqual({ token: 1, ticket: 1 });
    expect(new Set(configs.map((c) => c.nonceStr)).size).toBe(50);
  });

  it('fetches once for two processes asking at once, each with 25 pages', async () => {
    const other = await otherProcess();
    const ask = (handle: Db, i: number) => jsConfig({ db: handle, now: t0 }, aurora, `http://aurora.localhost/?p=${i}`, e);
    await Promise.all(Array.from({ length: 50 }, (_, i) => ask(i % 2 ? other : db, i)));
    expect(fake.counts).toEqual({ token: 1, ticket: 1 });
  });

  it('refuses a page of another site, naming the field, and a channel without an account', async () => {
    for (const url of [
      'https://evil.example/goods/detail/1',
      'http://lumen.localhost/goods/detail/1',
      'http://aurora.localhost.evil.example/',
      'http://user:pass@aurora.localhost/',
      'ftp://aurora.localhost/',
      'not a url',
    ]) {
      expect(await refusal(jsConfig({ db, now: t0 }, aurora, url, e))).toMatchObject({
        code: 400,
        field: 'url',
        text: 'Only a page of this store can be set up for sharing in WeChat.',
      });
    }
    const [lumen] = await db.select().from(channels).where(eq(channels.key, 'LUMEN'));
    expect(await refusal(jsConfig({ db, now: t0 }, lumen!, 'http://lumen.localhost/', e))).toMatchObject({ code: 404 });
    // An app id whose secret the deployment does not hold is no account either.
    expect(wechatAccountOf({ wechatAppId: 'wx0000000000000000' }, e)).toBeNull();
    expect(fake.counts).toEqual({ token: 0, ticket: 0 });
  });
});

describe('the ticket', () => {
  const account = { appId: MP_APP_ID, secret: MP_SECRET };
  const at = (ms: number) => () => new Date(t0.getTime() + ms);

  it('is kept in the database with its expiry and fetched again before it expires', async () => {
    const first = await jsapiTicket(db, account, { apiBase: fake.origin, now: at(0) });
    const [row] = await db.select().from(wechatTickets).where(eq(wechatTickets.appId, MP_APP_ID));
    expect(row).toMatchObject({ jsapiTicket: first, jsapiTicketExpiresAt: new Date(t0.getTime() + 7200_000), fetchingUntil: null });
    // Another process reads it from the database.
    expect(await jsapiTicket(await otherProcess(), account, { apiBase: fake.origin, now: at(3600_000) })).toBe(first);
    expect(fake.counts).toEqual({ token: 1, ticket: 1 });
    // Within REFRESH_BEFORE_MS of WeChat's expiry, a new one (and a new token, which expires as the ticket does).
    const second = await jsapiTicket(db, account, { apiBase: fake.origin, now: at(7200_000 - REFRESH_BEFORE_MS + 1) });
    expect(second).not.toBe(first);
    expect(fake.counts).toEqual({ token: 2, ticket: 2 });
  });

  it('gets a new token when WeChat says the stored one is no longer good', async () => {
    await jsapiTicket(db, account, { apiBase: fake.origin, now: at(0) });
    fake.voidTokens();
    // The ticket is due again while the token still looks fresh (as when the token was fetched elsewhere).
    await db.update(wechatTickets).set({ jsapiTicketExpiresAt: t0 });
    expect(await jsapiTicket(db, account, { apiBase: fake.origin, now: at(1000) })).toBe(fake.tickets.get(MP_APP_ID));
    expect(fake.counts).toEqual({ token: 2, ticket: 3 });
  });

  it("answers WeChat's refusals as a 503 in the buyer's words, never a 500, and tries again on the next ask", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const wrong = await refusal(jsapiTicket(db, { appId: MP_APP_ID, secret: 'a-wrong-secret-0000' }, { apiBase: fake.origin }));
    expect(wrong).toEqual({
      code: 503,
      field: undefined,
      text: 'WeChat could not be reached for the share card. The page works as usual; please try sharing again later.',
    });
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining('errcode 40125 invalid appsecret'));
    fake.refuseNextToken(45009, 'reach max api daily quota limit');
    expect((await refusal(jsapiTicket(db, account, { apiBase: fake.origin }))).code).toBe(503);
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining('errcode 45009'));
    // WeChat unreachable.
    expect((await refusal(jsapiTicket(db, account, { apiBase: 'http://127.0.0.1:9' }))).code).toBe(503);
    // The claim was given back: the next ask fetches at once.
    expect(await jsapiTicket(db, account, { apiBase: fake.origin })).toBe(fake.tickets.get(MP_APP_ID));
    jest.restoreAllMocks();
  });

  it('keeps serving the current ticket until its expiry when a refresh fails', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const first = await jsapiTicket(db, account, { apiBase: fake.origin, now: at(0) });
    fake.voidTokens();
    fake.refuseNextToken(-1, 'system error');
    await db.update(wechatTickets).set({ accessTokenExpiresAt: t0 });
    expect(await jsapiTicket(db, account, { apiBase: fake.origin, now: at(7200_000 - 60_000) })).toBe(first);
    jest.restoreAllMocks();
  });
});
