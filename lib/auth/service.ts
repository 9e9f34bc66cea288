import 'server-only';
import { verifyCode } from './sms-codes';
import { createSession } from './sessions';
import { findOrCreateUser } from './users';
import { maskPhone } from './mask';
import { recordLoginDevice } from './login-devices';
import { refuseBlockedKnocker } from './blocks';
import type { AddressLimits } from './limits';
import type { ChannelScope } from '../procedure/scope';
import { recordAgreementAcceptances } from '../channel/agreement-acceptances';

/**
 * auth/authCodeLoginV2 (spec §4, §7): a right code logs the phone in, signing it up on its first login.
 * The token goes back in the `authorization` response header; `data` carries the masked phone. The device it logged in
 * from (the storefront_device cookie, when the caller keeps cookies) is remembered on this channel, so it still gets
 * codes when the channel's SMS budget for new numbers is spent (issue 29; lib/auth/login-devices.ts). Logging in is
 * accepting the privacy policy and the sales terms: the versions the caller read (`agreementVersions`) are kept (issue 33).
 */
export async function loginWithCode(
  ctx: ChannelScope & {
    ip: string;
    secret: string;
    deviceId?: string | null;
    /** The caller's user agent (issue 36): kept with the session, shown among the buyer's logins. */
    userAgent?: string | null;
    addressLimits?: AddressLimits;
    agreementVersions?: { privacy: string; salesStrategy: string };
  },
  input: { phone: string; code: string },
): Promise<{ token: string; expiresAt: Date; userUuid: string; phone: string; newUser: boolean }> {
  await verifyCode(ctx, input.phone, input.code);
  // A buyer blocked on this channel (or on every channel) gets no session here (issue 32), nor does their identity,
  // their phone or an address in a blocked range (issue 33).
  await refuseBlockedKnocker(ctx.db, ctx.channelId, { phone: input.phone, ip: ctx.ip });
  const user = await findOrCreateUser(ctx.db, input.phone, ctx.now);
  const session = await createSession(ctx.db, {
    userId: user.id,
    channelId: ctx.channelId,
    now: ctx.now,
    ip: ctx.ip,
    userAgent: ctx.userAgent ?? null,
  });
  if (ctx.deviceId) await recordLoginDevice(ctx.db, { channelId: ctx.channelId, deviceId: ctx.deviceId, now: ctx.now });
  if (ctx.agreementVersions) {
    await recordAgreementAcceptances(ctx.db, { userId: user.id, channelId: ctx.channelId, versions: ctx.agreementVersions, now: ctx.now });
  }
  return { ...session, userUuid: user.uuid, phone: maskPhone(input.phone), newUser: user.created };
}
