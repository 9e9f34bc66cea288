import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { userBrandBindings, users } from '../db/schema';
import { maskPhone } from './mask';
import type { SessionUser } from '../procedure/scope';
import type { UserProfile } from './schema';

/** Signs a phone up on its first login; returns the user either way. Safe under concurrent first logins. */
export async function findOrCreateUser(db: Db, phone: string, now: Date): Promise<{ id: number; uuid: string; created: boolean }> {
  const inserted = await db
    .insert(users)
    .values({ uuid: randomUUID(), phone, createdAt: now, lastLoginAt: now })
    .onConflictDoNothing({ target: users.phone })
    .returning({ id: users.id, uuid: users.uuid });
  if (inserted[0]) return { ...inserted[0], created: true };
  const [row] = await db
    .update(users)
    .set({ lastLoginAt: now })
    .where(eq(users.phone, phone))
    .returning({ id: users.id, uuid: users.uuid });
  if (!row) throw new Error('user vanished between insert and update');
  return { ...row, created: false };
}

export async function userProfile(db: Db, user: SessionUser, channelId: number): Promise<UserProfile> {
  const [binding] = await db
    .select({ userId: userBrandBindings.userId })
    .from(userBrandBindings)
    .where(and(eq(userBrandBindings.userId, user.id), eq(userBrandBindings.channelId, channelId)))
    .limit(1);
  return {
    userUuid: user.uuid,
    phone: maskPhone(user.phone),
    nickname: user.nickname,
    avatar: user.avatar,
    createTime: user.createdAt.toISOString(),
    brandBound: Boolean(binding),
  };
}

/** thirdAccount/brandChannel (spec §7): binds the user to the channel's brand, once; repeating it is harmless. */
export async function bindBrand(
  db: Db,
  input: { userId: number; channelId: number; brandName: string; now: Date },
): Promise<{ brandName: string; bound: true }> {
  await db
    .insert(userBrandBindings)
    .values({ userId: input.userId, channelId: input.channelId, brandName: input.brandName, createdAt: input.now })
    .onConflictDoNothing();
  return { brandName: input.brandName, bound: true };
}
