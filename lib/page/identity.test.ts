import { identityStanding } from './identity';

// Where a buyer stands against what buying asks on the channel (issue 33): the pay page's notice reads this.

const NOW = new Date('2026-11-27T04:00:00Z');
const TZ = 'Asia/Shanghai';

describe('identityStanding', () => {
  it('asks nothing where the channel asks nothing, verified or not', () => {
    expect(identityStanding({ realName: false, minAge: null }, null, TZ, NOW)).toBe('ok');
  });

  it('finds a buyer with no identity unverified where real-name is asked', () => {
    expect(identityStanding({ realName: true, minAge: null }, null, TZ, NOW)).toBe('unverified');
    expect(identityStanding({ realName: true, minAge: 18 }, null, TZ, NOW)).toBe('unverified');
  });

  it("counts the age on the channel's today: 18 on the birthday, not the day before", () => {
    const req = { realName: true, minAge: 18 };
    expect(identityStanding(req, { birthDate: '2008-11-27' }, TZ, NOW)).toBe('ok');
    expect(identityStanding(req, { birthDate: '2008-11-28' }, TZ, NOW)).toBe('underAge');
    // 23:30 UTC on the 26th is already the 27th in Shanghai.
    expect(identityStanding(req, { birthDate: '2008-11-27' }, TZ, new Date('2026-11-26T23:30:00Z'))).toBe('ok');
  });

  it('finds a 13-year-old under a 14+ channel, and a 30-year-old fine', () => {
    const req = { realName: true, minAge: 14 };
    expect(identityStanding(req, { birthDate: '2013-06-01' }, TZ, NOW)).toBe('underAge');
    expect(identityStanding(req, { birthDate: '1996-06-01' }, TZ, NOW)).toBe('ok');
  });
});
