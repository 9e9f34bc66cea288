import { ageOn, dayIn, identityRequirement, NO_IDENTITY_POLICY, parseIdentityPolicy } from './identity-policy';
import { DEFAULT_RISK_POLICY, parseRiskPolicy } from './risk-policy';

describe("a channel's real-name and age rules (issue 33)", () => {
  it('reads a channel made before issue 33 as asking nothing', () => {
    expect(parseIdentityPolicy({})).toEqual(NO_IDENTITY_POLICY);
    expect(identityRequirement(parseIdentityPolicy({}), 'buy', { blindBox: true })).toEqual({ realName: false, minAge: null });
  });

  it('reads values it does not know as not asked, never below 18 for blind boxes', () => {
    const policy = parseIdentityPolicy({ realName: { buy: 'yes', chainUp: true }, minAge: 12, blindBoxMinAge: 8 });
    expect(policy).toEqual({ ...NO_IDENTITY_POLICY, realName: { ...NO_IDENTITY_POLICY.realName, chainUp: true } });
  });

  it('turns real-name on for what a minimum age guards', () => {
    const policy = parseIdentityPolicy({ blindBoxMinAge: 18 });
    expect(identityRequirement(policy, 'buy')).toEqual({ realName: false, minAge: null });
    expect(identityRequirement(policy, 'buy', { blindBox: true })).toEqual({ realName: true, minAge: 18 });
    const fourteen = parseIdentityPolicy({ minAge: 14, blindBoxMinAge: 18 });
    expect(identityRequirement(fourteen, 'exchange')).toEqual({ realName: true, minAge: 14 });
    expect(identityRequirement(fourteen, 'receive', { blindBox: true })).toEqual({ realName: true, minAge: 18 });
  });

  it('counts an age from the birthday itself, and 29 February on 1 March', () => {
    expect(ageOn('2012-11-27', '2026-11-26')).toBe(13);
    expect(ageOn('2012-11-27', '2026-11-27')).toBe(14);
    expect(ageOn('2008-02-29', '2026-02-28')).toBe(17);
    expect(ageOn('2008-02-29', '2026-03-01')).toBe(18);
  });

  it("turns the day over at the channel's midnight", () => {
    const lateUtc = new Date('2026-11-26T17:30:00Z'); // 01:30 on the 27th in Shanghai
    expect(dayIn('Asia/Shanghai', lateUtc)).toBe('2026-11-27');
    expect(dayIn('UTC', lateUtc)).toBe('2026-11-26');
  });
});

describe("a channel's risk rules (issue 33)", () => {
  it('defaults to 3 unpaid orders in 24 h barring ordering for 24 h, captcha on', () => {
    expect(parseRiskPolicy({})).toEqual(DEFAULT_RISK_POLICY);
    expect(DEFAULT_RISK_POLICY.unpaid).toEqual({ limit: 3, withinHours: 24, blockHours: 24 });
  });

  it('keeps values in bounds and reads the rest as their defaults', () => {
    expect(parseRiskPolicy({ unpaid: { limit: 0, withinHours: 200, blockHours: 2 }, captcha: false })).toEqual({
      unpaid: { limit: 0, withinHours: 24, blockHours: 2 },
      captcha: false,
    });
  });
});
