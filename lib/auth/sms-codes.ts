import 'server-only';
import { raiseAlert } from '../monitor/alerts';
import { and, desc, eq, gt, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { smsCodes } from '../db/schema';
import { AppError } from '../procedure/errors';
import { hmac, randomDigits, sameDigest } from '../security/crypto';
import { AUTH_LIMITS, DEFAULT_ADDRESS_LIMITS, type AddressLimits } from './limits';
import type { SmsMessage, SmsProvider } from './sms';
import { hit, hitAll, type Limit } from '../rate-limit/rate-limit';
import { addressLimits } from '../rate-limit/address';
import type { SendCodeResult } from './schema';
import type { ChannelScope } from '../procedure/scope';
import { msg } from '../procedure/messages';
import { knownOnChannel } from './login-devices';

/**
 * SMS verification codes (DESIGN §10, issue on accounts): 6 digits from the CSPRNG, kept only as an HMAC keyed by the
 * server secret, valid 5 minutes, single use, burnt after 5 wrong tries. Limits (security review, finding 4; issue 29;
 * the figures in ./limits.ts, the reasons in docs/security.md), in this order:
 * 1. per client address and per network (an IPv6 /64; IPv4 as configured: lib/rate-limit/address.ts), a burst per
 *    minute and an hour, and per device, counted before anything else, so a flood is stopped where it comes from and
 *    costs no one else anything;
 * 2. per phone on this channel: 60 s between codes, then a doubling wait capped at 30 minutes; never a day-long lock;
 * 3. per channel: the hourly SMS budget for numbers and devices new to the channel; the operator is alerted at 80% and
 *    when it is spent. Buyers who logged in on the channel before (their device or their phone) still get codes then,
 *    out of an allowance of their own (issue 29: spending the budget must not shut the store's login for everyone).
 * Every counter is atomic (lib/rate-limit/rate-limit.ts). The answer never depends on whether the phone has an account;
 * once the budget is spent, it depends on whether the phone or the device logged in on this channel (docs/security.md).
 */
export type CodeCtx = ChannelScope & {
  ip: string;
  /** The storefront_device cookie's id, when the caller keeps cookies. */
  deviceId?: string | null;
  secret: string;
  sms: SmsProvider;
  /** The channel's own sign name and template at the SMS carrier, when it has them. */
  smsSender?: SmsMessage['sender'];
  /** Per-address and per-network limits: the deployment's (SMS_CODES_PER_*, SMS_IPV4_NETWORK_PREFIX), else the defaults. */
  addressLimits?: AddressLimits;
  /** What the code is for (issue 36): a login code (the default) never closes an account, nor a closing code logs in. */
  purpose?: SmsCodePurpose;
};

/** What an SMS code is for (`sms_codes.purpose`): each code works only for its own, and each has its own wait. */
export type SmsCodePurpose = 'login' | 'close';

function codeHash(secret: string, phone: string, code: string): string {
  return hmac(secret, `${phone}:${code}`);
}

/** Serialises work on one phone's codes of one channel (PostgreSQL advisory lock for the transaction; PGlite runs one at a time anyway). */
async function lockPhone(tx: Db, channelId: number, phone: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sms:${channelId}:${phone}`}))`);
}

/** The limits on the caller, checked first: per address and network, per minute and per hour, and per device. */
function callerLimits(ctx: CodeCtx): Limit[] {
  const a = ctx.addressLimits ?? DEFAULT_ADDRESS_LIMITS;
  return [
    ...addressLimits('sms:minute', ctx.ip, 60_000, { perAddress: a.perMinute, perNetwork: a.networkPerMinute }, a.ipv4NetworkPrefix),
    ...addressLimits('sms:hour', ctx.ip, 3600_000, { perAddress: a.perHour, perNetwork: a.networkPerHour }, a.ipv4NetworkPrefix),
    ...(ctx.deviceId ? [{ bucket: `sms:device:${ctx.deviceId}`, max: AUTH_LIMITS.devicePerHour, windowMs: 3600_000 }] : []),
  ];
}

/**
 * Logs an `[alert]` line at most once per hour per key, however many requests run into the same condition: under a
 * flood the operator reads one line per channel and condition, not one per refused buyer. The SMS outbox raises the
 * budget alert through it too (./sms-outbox.ts: refund texts count against the same hourly budget, issue 32).
 */
export async function alertOnce(db: Db, key: string, now: Date, line: string, channelId: number): Promise<void> {
  const first = await hit(db, { bucket: `alert:${key}`, max: 1, windowMs: 3600_000 }, now);
  if (first.allowed) console.error(line);
  // To the console's alerts and the webhook too (issue 32): the SMS budget spent.
  if (first.allowed)
    await raiseAlert(db, { kind: 'smsBudget', channelId, subject: key, detail: line.replace(/^\[alert\] /, '') }, now, { logged: true });
}

type Alert = { key: string; line: string };

/** How long a phone must wait after its last code, given how many it was sent in the last 24 h (that one included). */
export function phoneWaitMs(sentToday: number): number {
  if (sentToday < AUTH_LIMITS.phoneBackoffAfter) return AUTH_LIMITS.phoneCooldownMs;
  return Math.min(AUTH_LIMITS.phoneCooldownMs * 2 ** (sentToday - AUTH_LIMITS.phoneBackoffAfter + 1), AUTH_LIMITS.phoneMaxWaitMs);
}

/** auth/getAuthCode: checks the limits, stores a fresh code (older ones stop working) and sends it. */
export async function sendCode(ctx: CodeCtx, phone: string): Promise<SendCodeResult> {
  const first = await hitAll(ctx.db, callerLimits(ctx), ctx.now);
  if (first.refused) {
    throw new AppError(429, msg('smsFlood', { waitMs: first.refused.resetAt.getTime() - ctx.now.getTime() }));
  }

  const code = randomDigits(AUTH_LIMITS.codeDigits);
  // Alerts are raised after the transaction: a refusal rolls it back, and the line must still be logged once.
  const alerts: Alert[] = [];
  let stored: { wait: number; codeId: number; replacedIds: number[] };
  try {
    stored = await ctx.db.transaction(async (tx) => {
      await lockPhone(tx, ctx.channelId, phone);
      // Issue 29: the wait counts this channel's codes only; a code from another store does not hold this one up.
      const recent = await tx
        .select({ createdAt: smsCodes.createdAt })
        .from(smsCodes)
        .where(
          and(
            eq(smsCodes.phone, phone),
            eq(smsCodes.channelId, ctx.channelId),
            eq(smsCodes.purpose, ctx.purpose ?? 'login'),
            gte(smsCodes.createdAt, new Date(ctx.now.getTime() - 24 * 3600_000)),
          ),
        )
        .orderBy(desc(smsCodes.createdAt))
        .limit(64);
      const last = recent[0];
      if (last) {
        const left = phoneWaitMs(recent.length) - (ctx.now.getTime() - last.createdAt.getTime());
        if (left > 0) throw new AppError(429, msg('smsPhoneWait', { waitMs: left }));
      }

      await spendChannelBudget(tx, ctx, phone, alerts);

      // A new code replaces any older one of this phone on this channel, for the same purpose.
      const replaced = await tx
        .update(smsCodes)
        .set({ consumedAt: ctx.now })
        .where(
          and(
            eq(smsCodes.phone, phone),
            eq(smsCodes.channelId, ctx.channelId),
            eq(smsCodes.purpose, ctx.purpose ?? 'login'),
            isNull(smsCodes.consumedAt),
          ),
        )
        .returning({ id: smsCodes.id });
      const [row] = await tx
        .insert(smsCodes)
        .values({
          channelId: ctx.channelId,
          phone,
          codeHash: codeHash(ctx.secret, phone, code),
          ip: ctx.ip,
          createdAt: ctx.now,
          expiresAt: new Date(ctx.now.getTime() + AUTH_LIMITS.codeTtlMs),
          purpose: ctx.purpose ?? 'login',
        })
        .returning({ id: smsCodes.id });
      return { wait: phoneWaitMs(recent.length + 1), codeId: row!.id, replacedIds: replaced.map((r) => r.id) };
    });
  } finally {
    for (const alert of alerts) await alertOnce(ctx.db, alert.key, ctx.now, alert.line, ctx.channelId);
  }
  // Sent after the row is committed: a code that arrives always works. A carrier's refusal is an AppError the buyer can
  // read (lib/auth/sms-carrier.ts); the code it did not send is taken back first.
  try {
    await ctx.sms.send(ctx.db, {
      channelId: ctx.channelId,
      phone,
      code,
      ttlMinutes: AUTH_LIMITS.codeTtlMs / 60_000,
      now: ctx.now,
      purpose: ctx.purpose ?? 'login',
      ...(ctx.smsSender ? { sender: ctx.smsSender } : {}),
    });
  } catch (error) {
    await forgetUnsentCode(ctx, phone, stored);
    throw error;
  }
  return {
    cooldownSeconds: Math.ceil(stored.wait / 1000),
    expiresInSeconds: AUTH_LIMITS.codeTtlMs / 1000,
    ...(ctx.sms.showsCodes ? { demoCode: code } : {}),
  };
}

/**
 * The channel's hourly SMS budget (issue 29). Codes count against the budget for new numbers first; once it is spent,
 * a buyer whose device or phone logged in on this channel before still gets a code, counted against the known buyers'
 * allowance, and everyone else is refused. So an attacker who spends the budget with made-up numbers cannot keep the
 * store's buyers out; to shut them out too, they would need the numbers or devices of thousands of them.
 */
async function spendChannelBudget(tx: Db, ctx: CodeCtx, phone: string, alerts: Alert[]): Promise<void> {
  const channel = ctx.channelId;
  const budget = await hit(tx, { bucket: `sms:channel:${channel}`, max: AUTH_LIMITS.channelPerHour, windowMs: 3600_000 }, ctx.now);
  if (budget.allowed) {
    if (budget.count === Math.ceil(AUTH_LIMITS.channelPerHour * AUTH_LIMITS.channelAlertShare)) {
      console.error(`[alert] channel ${channel} used ${budget.count} of its ${AUTH_LIMITS.channelPerHour} SMS codes this hour`);
    }
    return;
  }
  const until = budget.resetAt.toISOString();
  alerts.push({
    key: `sms-budget:${channel}`,
    line: `[alert] channel ${channel} used its SMS budget of ${AUTH_LIMITS.channelPerHour} codes this hour; until ${until} only buyers whose device or phone logged in on it before get codes (up to ${AUTH_LIMITS.knownBuyersPerHour} more), new numbers are refused`,
  });
  // The budget counts codes to new numbers: one that goes to a known buyer is counted in their allowance instead.
  await budget.undo();
  if (!(await knownOnChannel(tx, { channelId: channel, deviceId: ctx.deviceId, phone }))) throw new AppError(429, msg('smsStoreBudget'));
  const allowance = await hit(
    tx,
    { bucket: `sms:channel-known:${channel}`, max: AUTH_LIMITS.knownBuyersPerHour, windowMs: 3600_000 },
    ctx.now,
  );
  if (!allowance.allowed) {
    alerts.push({
      key: `sms-known:${channel}`,
      line: `[alert] channel ${channel} also used its ${AUTH_LIMITS.knownBuyersPerHour} SMS codes for buyers who logged in before this hour; every code is refused until ${until}`,
    });
    throw new AppError(429, msg('smsStoreBudget'));
  }
}

/**
 * A code the carrier refused or never answered for is taken back (docs/security.md, "A text the carrier did not send"): its row goes, so the
 * phone's 60 s wait and backoff, counted from the rows of the last 24 h, do not count it and the buyer may ask again at
 * once; the codes it replaced work again, so a text that did arrive earlier is still good. The per-IP, per-device and
 * per-channel counters keep the attempt: they count requests, and a flood of failing ones is still a flood.
 */
async function forgetUnsentCode(ctx: CodeCtx, phone: string, stored: { codeId: number; replacedIds: number[] }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await lockPhone(tx, ctx.channelId, phone);
    await tx.delete(smsCodes).where(eq(smsCodes.id, stored.codeId));
    if (stored.replacedIds.length > 0) {
      await tx
        .update(smsCodes)
        .set({ consumedAt: null })
        .where(and(inArray(smsCodes.id, stored.replacedIds), eq(smsCodes.consumedAt, ctx.now)));
    }
  });
}

/**
 * Checks a code for a login: true spends it. A wrong code counts a try; the fifth wrong try burns it. The messages
 * name the field and never tell whether the phone has an account.
 */
export async function verifyCode(
  ctx: Pick<CodeCtx, 'db' | 'now' | 'channelId' | 'secret' | 'addressLimits' | 'purpose'> & { ip: string },
  phone: string,
  code: string,
): Promise<void> {
  // Counted before the code is looked at, given back when it is right (finding 10: concurrent tries cannot overrun it);
  // per address and per network (issue 29: the addresses of one /64 are one machine).
  const a = ctx.addressLimits ?? DEFAULT_ADDRESS_LIMITS;
  const perNetwork = Math.max(AUTH_LIMITS.wrongCodesPerIpPerHour, a.networkPerHour);
  const attempt = await hitAll(
    ctx.db,
    addressLimits('login', ctx.ip, 3600_000, { perAddress: AUTH_LIMITS.wrongCodesPerIpPerHour, perNetwork }, a.ipv4NetworkPrefix),
    ctx.now,
  );
  if (attempt.refused) throw new AppError(429, msg('smsCodeFlood', { waitMs: attempt.refused.resetAt.getTime() - ctx.now.getTime() }));
  const outcome = await ctx.db.transaction(async (tx) => {
    await lockPhone(tx, ctx.channelId, phone);
    const [row] = await tx
      .select({ id: smsCodes.id, codeHash: smsCodes.codeHash, wrongTries: smsCodes.wrongTries })
      .from(smsCodes)
      .where(
        and(
          eq(smsCodes.phone, phone),
          eq(smsCodes.channelId, ctx.channelId),
          eq(smsCodes.purpose, ctx.purpose ?? 'login'),
          isNull(smsCodes.consumedAt),
          gt(smsCodes.expiresAt, ctx.now),
        ),
      )
      .orderBy(desc(smsCodes.createdAt))
      .limit(1);
    if (!row) return 'none' as const;
    if (sameDigest(row.codeHash, codeHash(ctx.secret, phone, code))) {
      await tx.update(smsCodes).set({ consumedAt: ctx.now }).where(eq(smsCodes.id, row.id));
      return 'ok' as const;
    }
    const wrongTries = row.wrongTries + 1;
    const burnt = wrongTries >= AUTH_LIMITS.codeMaxWrongTries;
    await tx
      .update(smsCodes)
      .set({ wrongTries, consumedAt: burnt ? ctx.now : null })
      .where(eq(smsCodes.id, row.id));
    return burnt ? ('burnt' as const) : ({ left: AUTH_LIMITS.codeMaxWrongTries - wrongTries } as const);
  });
  if (outcome === 'ok') {
    for (const h of attempt.hits) await h.undo();
    return;
  }
  if (outcome === 'none') throw new AppError(400, msg('smsCodeNone'));
  if (outcome === 'burnt') throw new AppError(400, msg('smsCodeSpent', { tries: AUTH_LIMITS.codeMaxWrongTries }));
  throw new AppError(400, msg('smsCodeWrong', { left: outcome.left }));
}
