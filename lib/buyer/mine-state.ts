import 'server-only';
import { z } from 'zod';
import { accountNumberOf } from '../auth/account-numbers';
import { maskPhone } from '../auth/mask';
import { parseIdentityPolicy, type IdentityPolicy } from '../channel/identity-policy';
import type { ChannelRow } from '../db/schema';
import { formatDate } from '../format/date';
import type { SessionUser, UserScope } from '../procedure/scope';
import { readMineSummary } from './mine-summary';

/**
 * What /mine shows of the signed-in buyer (issue 34): the page's HTML is the same for every buyer of a channel (served
 * from the rendered-page cache, docs/caching.md), so everything of one buyer comes from this one small call,
 * `userAttribute/mineSummary`, read in the browser (components/mine/mine-state.tsx). Never cached: the session read
 * (kept a few seconds) and one statement (lib/buyer/mine-summary.ts); the account number is made on first need.
 */
export const mineStateSchema = z.object({
  phone: z.string().describe('masked, 138****8000'),
  nickname: z.string().nullable(),
  /** The buyer's own avatar; null: the page shows the channel's userFaceImg. */
  avatar: z.string().nullable(),
  accountNumber: z.string().describe("the buyer's account number on this channel (10 digits), made on first need"),
  memberSince: z.string().describe("the day the buyer joined, yyyy-MM-dd in the channel's time zone"),
  collectibles: z.number().int(),
  boxes: z.number().int(),
  toPay: z.number().int().describe('unpaid orders still in time'),
  unreadNotices: z.number().int(),
  unreadMessages: z.number().int().describe("the buyer's own messages not read yet (issue 35, /mine/messages)"),
  incomingGifts: z.number().int().describe('gifts from other buyers waiting for their answer (issue 36, /mine/gifts)'),
  identity: z.object({
    /** The verified name, masked; null when the buyer has not verified. */
    maskedName: z.string().nullable(),
    /** Whether the channel asks a verified real name for anything (issue 33): /mine shows the row then. */
    asked: z.boolean().describe('the channel asks a verified real name for an action or an age'),
  }),
});
export type MineState = z.infer<typeof mineStateSchema>;

/**
 * Whether the channel asks a verified real name for anything (issue 33): an action, the channel's age, or blind boxes'
 * age. /mine shows the real-name row then (docs/decisions.md, "The real-name row on /mine"); the page keeps its place.
 */
export function asksIdentity(policy: IdentityPolicy): boolean {
  return Object.values(policy.realName).some(Boolean) || policy.minAge !== null || policy.blindBoxMinAge !== null;
}

export async function readMineState(
  scope: UserScope,
  user: SessionUser,
  channel: Pick<ChannelRow, 'identityPolicy' | 'timeZone'>,
): Promise<MineState> {
  const summary = await readMineSummary(scope);
  const accountNumber = summary.accountNumber ?? (await accountNumberOf(scope.db, scope.channelId, scope.userId, scope.now));
  return {
    phone: maskPhone(user.phone),
    nickname: user.nickname,
    avatar: user.avatar,
    accountNumber,
    memberSince: formatDate(user.createdAt, 'yyyy-MM-dd', channel.timeZone),
    collectibles: summary.collectibles,
    boxes: summary.boxes,
    toPay: summary.toPay,
    unreadNotices: summary.unreadNotices,
    unreadMessages: summary.unreadMessages,
    incomingGifts: summary.incomingGifts,
    identity: { maskedName: summary.identityName, asked: asksIdentity(parseIdentityPolicy(channel.identityPolicy)) },
  };
}
