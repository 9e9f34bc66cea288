import 'server-only';
import { and, desc, eq, gt, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { smsCodes } from '../db/schema';
import { AppError } from '../procedure/errors';
import { hmac, randomDigits, sameDigest } from '../security/crypto';
import { AUTH_LIMITS } from './limits';
import type { SmsMessage, SmsProvider } from './sms';
import { hit, hitAll } from '../rate-limit/rate-limit';
import type { SendCodeResult } from './schema';
import type { ChannelScope } from '../procedure/scope';
import { msg } from '../procedure/messages';

/**
 * SMS verification codes (DESIGN §10, issue on accounts): 6 digits from the CSPRNG, kept only as an HMAC keyed by the
 * server secret, valid 5 minutes, single use, burnt after 5 wrong tries. Limits (security review, finding 4; the
 * figures in ./limits.ts, the reasons in docs/security.md), in this order:
 * 1. per client IP (a burst per minute and an hour) and per device, counted before anything else, so a flood is
 *    stopped where it comes from and costs no one else anything;
 * 2. per phone: 60 s between codes, then a doubling wait capped at 30 minutes; never a day-long lock;
 * 3. per channel: the hourly SMS budget; the operator is alerted when 80% of it is gone.
 * Every counter is atomic (lib/rate-limit/rate-limit.ts). The answer never depends on whether the phone has an account.
 */
export type CodeCtx = ChannelScope & {
  ip: string;
  /** The storefront_device cookie's id, when the caller keeps cookies. */
  deviceId?: string | null;
  secret: string;
  sms: SmsProvider;
  /** The channel's own sign name and template at the SMS carrier, when it has them. */
  smsSender?: SmsMessage['sender'];
  /** Per-IP limits; the deployment may raise them (many buyers behind one carrier NAT). */
  ipLimits?: { perMinute: number; perHour: number };
};

function codeHash(secret: string, phone: string, code: string): string {
  return hmac(secret, `${phone}:${code}`);
}

/** Serialises work on one phone (PostgreSQL advisory lock for the transaction; PGlite runs one at a time anyway). */
async function lockPhone(tx: Db, phone: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sms:${phone}`}))`);
}

/** How long a phone must wait after its last code, given how many it was sent in the last 24 h (that one included). */
export function phoneWaitMs(sentToday: number): number {
  if (sentToday < AUTH_LIMITS.phoneBackoffAfter) return AUTH_LIMITS.phoneCooldownMs;
  return Math.min(AUTH_LIMITS.phoneCooldownMs * 2 ** (sentToday - AUTH_LIMITS.phoneBackoffAfter + 1), AUTH_LIMITS.phoneMaxWaitMs);
}

export type { SendCodeResult } from './schema';

/** auth/getAuthCode: checks the limits, stores a fresh code (older ones stop working) and sends it. */
export async function sendCode(ctx: CodeCtx, phone: string): Promise<SendCodeResult> {
  const ipLimits = ctx.ipLimits ?? { perMinute: AUTH_LIMITS.ipPerMinute, perHour: AUTH_LIMITS.ipPerHour };
  const first = await hitAll(
    ctx.db,
    [
      { bucket: `sms:ip-minute:${ctx.ip}`, max: ipLimits.perMinute, windowMs: 60_000 },
      { bucket: `sms:ip-hour:${ctx.ip}`, max: ipLimits.perHour, windowMs: 3600_000 },
      ...(ctx.deviceId ? [{ bucket: `sms:device:${ctx.deviceId}`, max: AUTH_LIMITS.devicePerHour, windowMs: 3600_000 }] : []),
    ],
    ctx.now,
  );
  if (first.refused) {
    throw new AppError(429, msg('smsFlood', { waitMs: first.refused.resetAt.getTime() - ctx.now.getTime() }));
  }

  const code = randomDigits(AUTH_LIMITS.codeDigits);
  const stored = await ctx.db.transaction(async (tx) => {
    await lockPhone(tx, phone);
    const recent = await tx
      .select({ createdAt: smsCodes.createdAt })
      .from(smsCodes)
      .where(and(eq(smsCodes.phone, phone), gte(smsCodes.createdAt, new Date(ctx.now.getTime() - 24 * 3600_000))))
      .orderBy(desc(smsCodes.createdAt))
      .limit(64);
    const last = recent[0];
    if (last) {
      const left = phoneWaitMs(recent.length) - (ctx.now.getTime() - last.createdAt.getTime());
      if (left > 0) throw new AppError(429, msg('smsPhoneWait', { waitMs: left }));
    }

    const budget = await hit(tx, { bucket: `sms:channel:${ctx.channelId}`, max: AUTH_LIMITS.channelPerHour, windowMs: 3600_000 }, ctx.now);
    if (!budget.allowed) {
      console.error(
        `[alert] channel ${ctx.channelId} used its SMS budget of ${AUTH_LIMITS.channelPerHour} codes this hour; codes are refused until ${budget.resetAt.toISOString()}`,
      );
      throw new AppError(429, msg('smsStoreBudget'));
    }
    if (budget.count === Math.ceil(AUTH_LIMITS.channelPerHour * AUTH_LIMITS.channelAlertShare)) {
      console.error(`[alert] channel ${ctx.channelId} used ${budget.count} of its ${AUTH_LIMITS.channelPerHour} SMS codes this hour`);
    }

    // A new code replaces any older one of this phone on this channel.
    const replaced = await tx
      .update(smsCodes)
      .set({ consumedAt: ctx.now })
      .where(and(eq(smsCodes.phone, phone), eq(smsCodes.channelId, ctx.channelId), isNull(smsCodes.consumedAt)))
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
      })
      .returning({ id: smsCodes.id });
    return { wait: phoneWaitMs(recent.length + 1), codeId: row!.id, replacedIds: replaced.map((r) => r.id) };
  });
  // Sent after the row is committed: a code that arrives always works. A carrier's refusal is an AppError the buyer can
  // read (lib/auth/sms-carrier.ts); the code it did not send is taken back first.
  try {
    await ctx.sms.send(ctx.db, {
      channelId: ctx.channelId,
      phone,
      code,
      ttlMinutes: AUTH_LIMITS.codeTtlMs / 60_000,
      now: ctx.now,
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
 * A code the carrier refused or never answered for is taken back (docs/security.md, "A text the carrier did not send"): its row goes, so the
 * phone's 60 s wait and backoff, counted from the rows of the last 24 h, do not count it and the buyer may ask again at
 * once; the codes it replaced work again, so a text that did arrive earlier is still good. The per-IP, per-device and
 * per-channel counters keep the attempt: they count requests, and a flood of failing ones is still a flood.
 */
async function forgetUnsentCode(ctx: CodeCtx, phone: string, stored: { codeId: number; replacedIds: number[] }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await lockPhone(tx, phone);
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
  ctx: Pick<CodeCtx, 'db' | 'now' | 'channelId' | 'secret'> & { ip: string },
  phone: string,
  code: string,
): Promise<void> {
  // Counted before the code is looked at, given back when it is right (finding 10: concurrent tries cannot overrun it).
  const attempt = await hit(ctx.db, { bucket: `login:ip:${ctx.ip}`, max: AUTH_LIMITS.wrongCodesPerIpPerHour, windowMs: 3600_000 }, ctx.now);
  if (!attempt.allowed) throw new AppError(429, msg('smsCodeFlood', { waitMs: attempt.resetAt.getTime() - ctx.now.getTime() }));
  const outcome = await ctx.db.transaction(async (tx) => {
    await lockPhone(tx, phone);
    const [row] = await tx
      .select({ id: smsCodes.id, codeHash: smsCodes.codeHash, wrongTries: smsCodes.wrongTries })
      .from(smsCodes)
      .where(
        and(eq(smsCodes.phone, phone), eq(smsCodes.channelId, ctx.channelId), isNull(smsCodes.consumedAt), gt(smsCodes.expiresAt, ctx.now)),
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
  if (outcome === 'ok') return attempt.undo();
  if (outcome === 'none') throw new AppError(400, msg('smsCodeNone'));
  if (outcome === 'burnt') throw new AppError(400, msg('smsCodeSpent', { tries: AUTH_LIMITS.codeMaxWrongTries }));
  throw new AppError(400, msg('smsCodeWrong', { left: outcome.left }));
}
