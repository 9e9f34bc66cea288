import 'server-only';
import { and, count, desc, eq, gt, gte, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { smsCodes } from '../db/schema';
import { AppError } from '../api/errors';
import { hmac, randomDigits, sameDigest } from './crypto';
import { AUTH_LIMITS } from './limits';
import type { SmsProvider } from './sms';

/**
 * SMS verification codes (DESIGN §10, issue on accounts): 6 digits from the CSPRNG, kept only as an HMAC keyed by the
 * server secret, valid 5 minutes, single use, burnt after 5 wrong tries. Limits: per phone 1 per 60 s and 10 per
 * 24 h, per IP and per channel per hour. The answer never depends on whether the phone has an account.
 */
export type CodeCtx = { db: Db; now: Date; channelId: number; ip: string; secret: string; sms: SmsProvider };

function codeHash(secret: string, phone: string, code: string): string {
  return hmac(secret, `${phone}:${code}`);
}

/** Serialises work on one phone (PostgreSQL advisory lock for the transaction; PGlite runs one at a time anyway). */
async function lockPhone(tx: Db, phone: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sms:${phone}`}))`);
}

function since(now: Date, ms: number): Date {
  return new Date(now.getTime() - ms);
}

function wait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.ceil(minutes / 60)} h`;
}

export type SendCodeResult = { cooldownSeconds: number; expiresInSeconds: number };

/** auth/getAuthCode: checks the limits, stores a fresh code (older ones stop working) and sends it. */
export async function sendCode(ctx: CodeCtx, phone: string): Promise<SendCodeResult> {
  const code = randomDigits(AUTH_LIMITS.codeDigits);
  await ctx.db.transaction(async (tx) => {
    await lockPhone(tx, phone);

    const [last] = await tx
      .select({ createdAt: smsCodes.createdAt })
      .from(smsCodes)
      .where(eq(smsCodes.phone, phone))
      .orderBy(desc(smsCodes.createdAt))
      .limit(1);
    if (last && ctx.now.getTime() - last.createdAt.getTime() < AUTH_LIMITS.phoneCooldownMs) {
      const left = AUTH_LIMITS.phoneCooldownMs - (ctx.now.getTime() - last.createdAt.getTime());
      throw new AppError(429, `phone: a code was sent less than a minute ago; ask again in ${wait(left)}`);
    }
    await refuseOver(tx, eq(smsCodes.phone, phone), since(ctx.now, 24 * 3600_000), AUTH_LIMITS.phonePerDay, 'phone: too many codes for this number today; try again tomorrow');
    await refuseOver(tx, eq(smsCodes.ip, ctx.ip), since(ctx.now, 3600_000), AUTH_LIMITS.ipPerHour, 'too many codes requested from this network; try again in an hour');
    await refuseOver(tx, eq(smsCodes.channelId, ctx.channelId), since(ctx.now, 3600_000), AUTH_LIMITS.channelPerHour, 'this store is sending too many codes right now; try again later');

    // A new code replaces any older one of this phone on this channel.
    await tx
      .update(smsCodes)
      .set({ consumedAt: ctx.now })
      .where(and(eq(smsCodes.phone, phone), eq(smsCodes.channelId, ctx.channelId), isNull(smsCodes.consumedAt)));
    await tx.insert(smsCodes).values({
      channelId: ctx.channelId,
      phone,
      codeHash: codeHash(ctx.secret, phone, code),
      ip: ctx.ip,
      createdAt: ctx.now,
      expiresAt: new Date(ctx.now.getTime() + AUTH_LIMITS.codeTtlMs),
    });
  });
  // Sent after the row is committed: a code that arrives always works. A provider failure is a 500 (retry later).
  await ctx.sms.send(ctx.db, {
    channelId: ctx.channelId,
    phone,
    text: `Your verification code is ${code}. It is valid for ${AUTH_LIMITS.codeTtlMs / 60_000} minutes. Do not share it with anyone.`,
    now: ctx.now,
  });
  return { cooldownSeconds: AUTH_LIMITS.phoneCooldownMs / 1000, expiresInSeconds: AUTH_LIMITS.codeTtlMs / 1000 };
}

async function refuseOver(tx: Db, where: ReturnType<typeof eq>, from: Date, max: number, message: string): Promise<void> {
  const [row] = await tx.select({ n: count() }).from(smsCodes).where(and(where, gte(smsCodes.createdAt, from)));
  if ((row?.n ?? 0) >= max) throw new AppError(429, message);
}

/**
 * Checks a code for a login: true spends it. A wrong code counts a try; the fifth wrong try burns it. The messages
 * name the field and never tell whether the phone has an account.
 */
export async function verifyCode(ctx: Omit<CodeCtx, 'sms' | 'ip'>, phone: string, code: string): Promise<void> {
  const outcome = await ctx.db.transaction(async (tx) => {
    await lockPhone(tx, phone);
    const [row] = await tx
      .select({ id: smsCodes.id, codeHash: smsCodes.codeHash, wrongTries: smsCodes.wrongTries })
      .from(smsCodes)
      .where(and(eq(smsCodes.phone, phone), eq(smsCodes.channelId, ctx.channelId), isNull(smsCodes.consumedAt), gt(smsCodes.expiresAt, ctx.now)))
      .orderBy(desc(smsCodes.createdAt))
      .limit(1);
    if (!row) return 'none' as const;
    if (sameDigest(row.codeHash, codeHash(ctx.secret, phone, code))) {
      await tx.update(smsCodes).set({ consumedAt: ctx.now }).where(eq(smsCodes.id, row.id));
      return 'ok' as const;
    }
    const wrongTries = row.wrongTries + 1;
    const burnt = wrongTries >= AUTH_LIMITS.codeMaxWrongTries;
    await tx.update(smsCodes).set({ wrongTries, consumedAt: burnt ? ctx.now : null }).where(eq(smsCodes.id, row.id));
    return burnt ? ('burnt' as const) : ({ left: AUTH_LIMITS.codeMaxWrongTries - wrongTries } as const);
  });
  if (outcome === 'ok') return;
  if (outcome === 'none') throw new AppError(400, 'code: has expired or was never sent; ask for a new code');
  if (outcome === 'burnt') throw new AppError(400, `code: wrong ${AUTH_LIMITS.codeMaxWrongTries} times; this code no longer works, ask for a new one`);
  throw new AppError(400, `code: is wrong; ${outcome.left} ${outcome.left === 1 ? 'try' : 'tries'} left`);
}
