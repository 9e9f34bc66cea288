import type { TestApi } from '@/test/api';
import { FIXTURE_PASSWORD, OPS_HOST, type TestOperator, totpCode } from '@/test/operator-fixtures';
import { signIn } from '@/lib/operator/accounts';

/**
 * A lottery's story over hours, for API tests (issue 35): times counted in hours from the test's start, the owner's
 * console calls at any of those times (the console's session lasts less than the story, so the owner signs in again a
 * minute before each new time), and the settings of a lottery whose registration runs from 1 h to 2 h, drawn at 3 h,
 * with a purchase window of 60 minutes.
 */
export type LotteryStory = {
  at: (hours: number) => Date;
  ops: (path: string, body: unknown, now?: Date, locale?: string) => ReturnType<TestApi['callApi']>;
  settings: (sale: string, channel?: string) => Record<string, unknown>;
};

const HOUR = 3_600_000;

export function lotteryStory(api: TestApi, owner: TestOperator, ip: string): LotteryStory {
  const base = api.now;
  const at = (hours: number) => new Date(base.getTime() + hours * HOUR);
  const cookies = new Map<number, Promise<string>>();
  const cookieAt = (now: Date): Promise<string> => {
    if (now.getTime() === api.now.getTime()) return Promise.resolve(owner.cookie);
    let cookie = cookies.get(now.getTime());
    if (!cookie) {
      const when = new Date(now.getTime() - 60_000);
      cookie = signIn(api.db, { name: owner.name, password: FIXTURE_PASSWORD, code: totpCode(owner.secret, when), now: when, ip }).then(
        (session) => `__Host-ops=${session.token}`,
      );
      cookies.set(now.getTime(), cookie);
    }
    return cookie;
  };
  return {
    at,
    ops: async (path, body, now = api.now, locale = 'en') =>
      api.callApi(path, body, { host: OPS_HOST, now, headers: { cookie: await cookieAt(now), 'accept-language': locale } }),
    settings: (sale, channel = 'AURORA') => ({
      channel,
      sale,
      registrationOpensAt: at(1).toISOString(),
      registrationClosesAt: at(2).toISOString(),
      drawAt: at(3).toISOString(),
      purchaseWindowMinutes: 60,
      publicValueSource: '福彩3D numbers drawn on the draw day',
    }),
  };
}
