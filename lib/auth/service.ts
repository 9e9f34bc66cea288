import 'server-only';
import { verifyCode } from './sms-codes';
import { createSession } from './sessions';
import { findOrCreateUser } from './users';
import { maskPhone } from './mask';
import type { ChannelScope } from '../procedure/scope';

/**
 * auth/authCodeLoginV2 (spec §4, §7): a right code logs the phone in, signing it up on its first login.
 * The token goes back in the `authorization` response header; `data` carries the masked phone.
 */
export async function loginWithCode(
  ctx: ChannelScope & { ip: string; secret: string },
  input: { phone: string; code: string },
): Promise<{ token: string; expiresAt: Date; userUuid: string; phone: string; newUser: boolean }> {
  await verifyCode(ctx, input.phone, input.code);
  const user = await findOrCreateUser(ctx.db, input.phone, ctx.now);
  const session = await createSession(ctx.db, { userId: user.id, channelId: ctx.channelId, now: ctx.now, ip: ctx.ip });
  return { ...session, userUuid: user.uuid, phone: maskPhone(input.phone), newUser: user.created };
}
