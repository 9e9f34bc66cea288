import 'server-only';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { wechatTickets } from '../db/schema';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';

/**
 * An official account's jsapi_ticket (issue 36; docs/wechat.md): from WeChat's API (`/cgi-bin/token` for the
 * access_token, then `/cgi-bin/ticket/getticket?type=jsapi`), kept in `wechat_tickets` with their expiry and fetched
 * again REFRESH_BEFORE_MS before it. WeChat allows few fetches a day and a new access_token voids the last one, so every
 * process shares one fetch:
 * - in a process, concurrent asks for one account wait on one promise (single flight);
 * - across processes, the process that fetches first claims the row (`fetching_until`, set by one conditional UPDATE,
 *   which PostgreSQL's row lock makes one winner of); the others read the row until the winner's ticket is there. The
 *   claim is not a transaction held over the HTTP call: the embedded database has one connection (docs/architecture.md),
 *   which a transaction would keep from every other request for as long as WeChat takes.
 * WeChat's refusals (`errcode`) become a clear 503 in the buyer's words, the errcode in the server's log.
 */

/** How long before WeChat's expiry (7200 s in practice) a token or ticket is fetched again. */
export const REFRESH_BEFORE_MS = 10 * 60_000;
/** How long one process's claim on the fetch holds (past it, another process may fetch). */
export const CLAIM_MS = 15_000;
/** How long one call to WeChat may take. */
const FETCH_TIMEOUT_MS = 8_000;
/** How often a waiting process reads the row again. */
const WAIT_STEP_MS = 50;

export type WechatAccount = { appId: string; secret: string };
export type TicketOptions = { apiBase: string; now?: () => Date };

const errorAnswer = z.object({ errcode: z.number(), errmsg: z.string().optional() });
const tokenAnswer = z.object({ access_token: z.string().min(1).max(1024), expires_in: z.number().int().positive() });
const ticketAnswer = z.object({ ticket: z.string().min(1).max(1024), expires_in: z.number().int().positive() });

/** errcodes that mean the access_token we sent is no longer good: fetch a new one and ask once more. */
const STALE_TOKEN = new Set([40001, 40014, 42001]);

class WechatRefusal extends Error {
  constructor(
    readonly errcode: number | null,
    message: string,
  ) {
    super(message);
  }
}

function unavailable(appId: string, error: unknown): AppError {
  console.error(`[wechat] no jsapi_ticket for ${appId}: ${error instanceof Error ? error.message : String(error)}`);
  return new AppError(503, msg('wechatUnavailable'));
}

async function callWechat<T>(url: string, answer: z.ZodType<T>): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    throw new WechatRefusal(null, `WeChat did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  const body: unknown = await response.json().catch(() => null);
  const refused = errorAnswer.safeParse(body);
  if (refused.success && refused.data.errcode !== 0) {
    throw new WechatRefusal(refused.data.errcode, `WeChat refused: errcode ${refused.data.errcode} ${refused.data.errmsg ?? ''}`.trim());
  }
  const parsed = answer.safeParse(body);
  if (!parsed.success) throw new WechatRefusal(null, `WeChat answered HTTP ${response.status} with an unexpected body`);
  return parsed.data;
}

function fresh(expiresAt: Date | null, now: Date): expiresAt is Date {
  return expiresAt !== null && expiresAt.getTime() - REFRESH_BEFORE_MS > now.getTime();
}

const flights = new WeakMap<Db, Map<string, Promise<string>>>();

/** The account's jsapi_ticket, from the database while it is fresh, else fetched once for every process. */
export async function jsapiTicket(db: Db, account: WechatAccount, options: TicketOptions): Promise<string> {
  const now = options.now ?? (() => new Date());
  const stored = await readRow(db, account.appId);
  if (stored && stored.jsapiTicket && fresh(stored.jsapiTicketExpiresAt, now())) return stored.jsapiTicket;
  let byApp = flights.get(db);
  if (!byApp) flights.set(db, (byApp = new Map()));
  const running = byApp.get(account.appId);
  if (running) return running;
  const flight = refresh(db, account, options.apiBase, now).finally(() => byApp.delete(account.appId));
  byApp.set(account.appId, flight);
  return flight;
}

async function readRow(db: Db, appId: string) {
  const [row] = await db.select().from(wechatTickets).where(eq(wechatTickets.appId, appId));
  return row ?? null;
}

async function refresh(db: Db, account: WechatAccount, apiBase: string, now: () => Date): Promise<string> {
  const { appId } = account;
  await db.insert(wechatTickets).values({ appId }).onConflictDoNothing();
  const deadline = now().getTime() + CLAIM_MS * 2;
  for (;;) {
    const at = now();
    // The claim: one UPDATE, so of two processes asking at once one sets it and the other finds it set.
    const claimed = await db
      .update(wechatTickets)
      .set({ fetchingUntil: new Date(at.getTime() + CLAIM_MS), updatedAt: at })
      .where(
        and(
          eq(wechatTickets.appId, appId),
          or(isNull(wechatTickets.fetchingUntil), lt(wechatTickets.fetchingUntil, at)),
          // Someone may have stored a fresh ticket since this process read the row.
          or(
            isNull(wechatTickets.jsapiTicketExpiresAt),
            lt(wechatTickets.jsapiTicketExpiresAt, new Date(at.getTime() + REFRESH_BEFORE_MS)),
          ),
        ),
      )
      .returning();
    const row = claimed[0];
    if (row) return fetchAndStore(db, account, row, apiBase, now);
    const current = await readRow(db, appId);
    if (current?.jsapiTicket && fresh(current.jsapiTicketExpiresAt, now())) return current.jsapiTicket;
    if (now().getTime() > deadline) throw unavailable(appId, new Error('another process held the fetch too long'));
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
}

async function fetchAndStore(
  db: Db,
  account: WechatAccount,
  row: typeof wechatTickets.$inferSelect,
  apiBase: string,
  now: () => Date,
): Promise<string> {
  const base = apiBase.replace(/\/$/, '');
  const newToken = async () => {
    const query = new URLSearchParams({ grant_type: 'client_credential', appid: account.appId, secret: account.secret });
    const answer = await callWechat(`${base}/cgi-bin/token?${query.toString()}`, tokenAnswer);
    return { token: answer.access_token, expiresAt: new Date(now().getTime() + answer.expires_in * 1000) };
  };
  try {
    let token =
      row.accessToken && fresh(row.accessTokenExpiresAt, now())
        ? { token: row.accessToken, expiresAt: row.accessTokenExpiresAt }
        : await newToken();
    const getTicket = (accessToken: string) =>
      callWechat(
        `${base}/cgi-bin/ticket/getticket?${new URLSearchParams({ access_token: accessToken, type: 'jsapi' }).toString()}`,
        ticketAnswer,
      );
    let ticket;
    try {
      ticket = await getTicket(token.token);
    } catch (error) {
      if (!(error instanceof WechatRefusal) || error.errcode === null || !STALE_TOKEN.has(error.errcode)) throw error;
      token = await newToken();
      ticket = await getTicket(token.token);
    }
    const at = now();
    await db
      .update(wechatTickets)
      .set({
        accessToken: token.token,
        accessTokenExpiresAt: token.expiresAt,
        jsapiTicket: ticket.ticket,
        jsapiTicketExpiresAt: new Date(at.getTime() + ticket.expires_in * 1000),
        fetchingUntil: null,
        updatedAt: at,
      })
      .where(eq(wechatTickets.appId, account.appId));
    return ticket.ticket;
  } catch (error) {
    // Let the next ask try at once rather than after the claim runs out.
    await db
      .update(wechatTickets)
      .set({ fetchingUntil: null, updatedAt: sql`now()` })
      .where(eq(wechatTickets.appId, account.appId))
      .catch(() => undefined);
    // A ticket inside its refresh margin still works until WeChat's expiry: better than no share card.
    if (row.jsapiTicket && row.jsapiTicketExpiresAt && row.jsapiTicketExpiresAt.getTime() > now().getTime()) {
      console.error(`[wechat] refreshing ${account.appId}'s jsapi_ticket failed; the current one serves until it expires`, error);
      return row.jsapiTicket;
    }
    throw unavailable(account.appId, error);
  }
}
