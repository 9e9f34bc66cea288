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
import { readBuyTerms, termsRefusal, type BuyTerms } from './service';
import { earlyOpening } from '../sale/priority';
import { admissionRefusalAtDoor } from '../sale/queue';
import { buyInputSchema } from './procedures';
import { soldOutNoted } from './sold-out';
import type { AppError } from '../procedure/errors';

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
 *
 * issue 35, the waiting room: a buy of an open sale through a waiting room without a valid admission is answered at the
 * door too, so a crowd without admissions does not take the line's places from the admitted buyers. Only what is sure
 * without knowing the buyer (the door reads no session): the admission missing, not signed by this store (malformed or
 * forged), or another sale's; an HMAC, no read. Another buyer's or an expired admission goes in, as does a retried tap
 * (a tap that made its order carried a valid admission, and a retry sends the same body; docs/api.md). And only a call
 * the buy would take that far: a valid input, the sale's terms passing (open, not paused, within the limit), not noted
 * sold out in this process. As for a sale not open yet, a buyer the channel's captcha would ask first is told the
 * refusal the buy ends with after the captcha. A lottery sale's buy is the buy's own to answer: its refusals need the
 * buyer's rank.
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
  const answer = (refusal: AppError): GateAnswer => {
    const acceptLanguage = headers['accept-language'];
    const locale = apiLocale(Array.isArray(acceptLanguage) ? acceptLanguage[0] : acceptLanguage, channel.locale);
    return {
      status: 200,
      body: JSON.stringify({ code: refusal.code, message: refusal.messageIn(locale, channel.timeZone), data: refusal.data ?? null }),
    };
  };
  if (window === SALE_STATUS.ON_SALE && terms.queue && !terms.sale.pausedAt) {
    const refusal = queueRefusal(json, terms, channel.id, db, now);
    return refusal ? answer(refusal) : null;
  }
  if (window !== SALE_STATUS.COMING_SOON && !(window === SALE_STATUS.ON_SALE && terms.sale.pausedAt)) return null;
  // issue 35, priority purchase: from the early opening the buy answers (an eligible buyer buys, everyone else is told
  // the sale's opening), since only it reads the buyer's eligibility.
  if (window === SALE_STATUS.COMING_SOON && terms.priority && now >= earlyOpening(terms.sale.saleStartTime, terms.priority.minutesEarly))
    return null;
  return answer(termsRefusal(terms, { quantity: 1 }, now)!);
}

/**
 * The refusal of an open waiting-room sale's buy that order/create would give for this body whoever the buyer is
 * (issue 35), or null to let the call in: only when the input is valid, the terms pass for its quantity and the sale is
 * not noted sold out (those come first in the buy), and the admission is missing, not this store's, or another sale's.
 */
function queueRefusal(json: unknown, terms: NonNullable<BuyTerms>, channelId: number, db: Db, now: Date): AppError | null {
  const input = buyInputSchema.safeParse(json);
  if (!input.success) return null;
  const { saleId, quantity, admission } = input.data;
  if (termsRefusal(terms, { quantity }, now)) return null;
  if (soldOutNoted(db, { channelId, saleId, quantity }, now.getTime())) return null;
  return admissionRefusalAtDoor(admission, saleId);
}
