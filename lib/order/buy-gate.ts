import 'server-only';
import type { IncomingHttpHeaders } from 'node:http';
import { getDb, type Db } from '../db/client';
import { env } from '../env';
import { domainSettings, routeHostOrKeyRule } from '../channel/domains';
import { readChannel } from '../channel/service';
import { idSchema } from '../procedure/schemas';
import { apiLocale } from '../i18n/locale';
import { SALE_STATUS, saleWindowStatus } from '../sale/status';
import { sessionCookieValue } from '../auth/session-claims';
import { readBuyTerms, termsRefusal } from './service';
import { earlyOpening } from '../sale/priority';

/** A buy call as the gate sees it at the door: read whole, with the headers the entry server resolved. */
export type GatedCall = { headers: IncomingHttpHeaders; body: string };
/** The gate's answer, sent as it is (the buy's own envelope). */
export type GateAnswer = { status: number; body: string };

/**
 * The buy lane's gate (issue 29, finding 2; docs/orders.md, "The buy lane"): a buy of a sale that has not opened is
 * answered at the door, "not open yet", exactly as `order/create` would answer it, instead of waiting in the line. So
 * nothing queued before a drop opens runs ahead of the taps at the opening: a call that arrives early is answered
 * early, and the line at the opening holds only calls that arrived after it.
 *
 * It reads only what the buy reads from memory (the channel and the sale's terms, cached and invalidated by tags), and
 * answers only a call that carries a credential (an Authorization header or a session cookie): an anonymous call goes
 * in and gets the dispatcher's 401 first, as every buyer-only call does (security finding 15). Everything it is unsure
 * of (a body that is not a buy, an unknown channel or sale, an open one) goes in, where the buy answers it.
 */
export async function gateBuyCall(call: GatedCall, options: { db?: Db; now?: Date } = {}): Promise<GateAnswer | null> {
  const headers = call.headers;
  if (!headers.authorization && sessionCookieValue(headers.cookie ?? null) === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(call.body);
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null) return null;
  const saleId = idSchema.safeParse((json as { saleId?: unknown }).saleId);
  if (!saleId.success) return null;

  const e = env();
  const key = (await routeHostOrKeyRule(options.db ?? getDb, String(headers.host ?? ''), domainSettings(e))).key;
  if (!key) return null;
  const db = options.db ?? getDb();
  const channel = await readChannel(db, key);
  if (!channel) return null;
  const terms = await readBuyTerms(db, channel.id, saleId.data);
  const now = options.now ?? new Date();
  if (!terms) return null;
  // Not open yet, or (issue 32) paused by its operator: answered at the door, as `order/create` would answer it.
  const window = saleWindowStatus(terms.sale, now);
  if (window !== SALE_STATUS.COMING_SOON && !(window === SALE_STATUS.ON_SALE && terms.sale.pausedAt)) return null;
  // issue 35, priority purchase: from the early opening the buy answers (an eligible buyer buys, everyone else is told
  // the sale's opening), since only it reads the buyer's eligibility.
  if (window === SALE_STATUS.COMING_SOON && terms.priority && now >= earlyOpening(terms.sale.saleStartTime, terms.priority.minutesEarly))
    return null;
  const refusal = termsRefusal(terms, { quantity: 1 }, now)!;
  const acceptLanguage = headers['accept-language'];
  const locale = apiLocale(Array.isArray(acceptLanguage) ? acceptLanguage[0] : acceptLanguage, channel.locale);
  return {
    status: 200,
    body: JSON.stringify({ code: refusal.code, message: refusal.messageIn(locale, channel.timeZone), data: refusal.data ?? null }),
  };
}
