import { CODE_LIMITS, generateCode } from '@/lib/redeem-code/service';
import { STORE_CODES } from '@/lib/demo/seed-data';
import { AUTH_LIMITS } from '@/lib/auth/limits';
import { securityHarness } from './support';

// Security review, finding 10: limits were read-then-write, so on PostgreSQL 40 concurrent wrong codes had 23 evaluated
// (limit 10). Every limit is now one atomic counter (lib/rate-limit/rate-limit.ts). This file runs on the embedded
// database and, in `npm test`, on PostgreSQL too (scripts/with-postgres.sh); the SMS side is in lib/auth/sms-codes.test.ts.

const h = securityHarness();

describe('limits under concurrency (finding 10)', () => {
  it('evaluates exactly the allowance of 40 concurrent wrong codes', async () => {
    const { token } = await h.buyer('13700000010', 'CHAIN');
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        h.call(
          '/market/api/channel/queryCodeRecord',
          { code: generateCode(), storeCode: STORE_CODES[0]!.code },
          { host: 'chain.localhost', headers: { authorization: token }, ip: '198.18.2.1' },
        ),
      ),
    );
    const codes = answers.map((a) => a.body.code);
    expect(codes.filter((c) => c === 409)).toHaveLength(CODE_LIMITS.wrongPerUser);
    expect(codes.filter((c) => c === 429)).toHaveLength(40 - CODE_LIMITS.wrongPerUser);
  });

  it('counts one address across buyers', async () => {
    const buyers = await Promise.all(Array.from({ length: 4 }, (_, i) => h.buyer(`1370000002${i}`, 'CHAIN')));
    const answers = await Promise.all(
      Array.from({ length: 45 }, (_, i) =>
        h.call(
          '/market/api/channel/queryCodeRecord',
          { code: generateCode(), storeCode: STORE_CODES[0]!.code },
          { host: 'chain.localhost', headers: { authorization: buyers[i % 4]!.token }, ip: '198.18.2.2' },
        ),
      ),
    );
    // Four buyers could make 40 wrong tries between them; the address allows 30.
    expect(answers.filter((a) => a.body.code === 409)).toHaveLength(CODE_LIMITS.wrongPerIp);
  });

  // Issue 29: one machine with a /64 has 2^64 addresses; a few hundred of them emptied a channel's SMS budget.
  it('counts concurrent captcha challenges from the addresses of one /64 as one client', async () => {
    const allowance = AUTH_LIMITS.challengesPerCode * AUTH_LIMITS.ipPerMinute;
    const answers = await Promise.all(
      Array.from({ length: allowance + 15 }, (_, i) =>
        h.call('/auth/api/captcha/challenge', { kind: 'text' }, { ip: `2001:db8:29:1:${(i + 1).toString(16)}::1` }),
      ),
    );
    expect(answers.filter((a) => a.body.code === 200)).toHaveLength(allowance);
    const refused = answers.filter((a) => a.body.code === 429);
    expect(refused).toHaveLength(15);
    expect(refused[0]!.body.message).toMatch(/^Too many security checks from this network\. Please try again in/);
    // The neighbouring /64 is someone else.
    expect((await h.call('/auth/api/captcha/challenge', { kind: 'text' }, { ip: '2001:db8:29:2::1' })).body.code).toBe(200);
  });

  it('counts concurrent wrong login codes from the addresses of one /64 as one client', async () => {
    const answers = await Promise.all(
      Array.from({ length: 45 }, (_, i) =>
        h.call(
          '/auth/api/auth/authCodeLoginV2',
          { phone: `1370029${String(i).padStart(4, '0')}`, code: '123456' },
          { ip: `2001:db8:29:3::${(i + 1).toString(16)}` },
        ),
      ),
    );
    // Every try is looked at until the network's allowance is gone: no code was sent to these phones.
    expect(answers.filter((a) => a.body.code === 400)).toHaveLength(AUTH_LIMITS.wrongCodesPerIpPerHour);
    expect(answers.filter((a) => a.body.code === 429)).toHaveLength(45 - AUTH_LIMITS.wrongCodesPerIpPerHour);
  });
});
