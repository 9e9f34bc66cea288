import { asc, eq } from 'drizzle-orm';
import { TOTP, Secret } from 'otpauth';
import { seededTestDb } from '@/test/db';
import { channels, operatorAudit, operatorInvites, operators } from '@/lib/db/schema';
import { AppError } from '@/lib/procedure/errors';
import {
  OPERATOR_LIMITS,
  completeEnrolment,
  createInvitedOperator,
  disableOperator,
  readEnrolment,
  resolveOperatorSession,
  signIn,
  endOperatorSession,
} from './accounts';
import { listConsoleChannels, operatorChannel } from './channels';
import { DEMO_OWNER, demoOwnerEnrolment, makeFirstOwner } from './first-owner';

// issue 31, "Operator accounts": what an operator (and someone guessing) notices of enrolment, sign-in and sessions,
// on PGlite and (scripts/with-postgres.sh) PostgreSQL.

const t0 = new Date('2026-11-26T08:00:00Z');
const db = seededTestDb(t0);
const PASSWORD = 'correct horse battery staple';
const at = (ms: number) => new Date(t0.getTime() + ms);
const code = (secret: string, when: Date) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: when.getTime() });

let ipSeq = 0;
const ip = () => `198.51.100.${++ipSeq}`;

async function refusal(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

/** An enrolled operator: name, TOTP secret and recovery codes, enrolled at `when`. */
async function enrolled(name: string, role: 'owner' | 'manager' | 'support' = 'owner', when = t0, channelKeys: string[] = []) {
  const { token } = await createInvitedOperator(db, { name, role, now: when, channels: channelKeys });
  const shown = (await readEnrolment(db, token, when))!;
  const { recoveryCodes } = await completeEnrolment(db, { token, password: PASSWORD, code: code(shown.secret, when), now: when, ip: ip() });
  return { name, secret: shown.secret, recoveryCodes, token };
}

describe('enrolment', () => {
  it('shows the QR code and secret, keeps an argon2id hash, and answers ten recovery codes once', async () => {
    const { token } = await createInvitedOperator(db, { name: 'Ada', role: 'owner', now: t0 });
    const shown = (await readEnrolment(db, token, t0))!;
    expect(shown).toMatchObject({ name: 'ada', role: 'owner' });
    expect(shown.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(shown.uri).toContain(`secret=${shown.secret}`);
    // The link's token is not what is stored.
    const invites = await db.select().from(operatorInvites);
    expect(invites.map((i) => i.tokenHash)).not.toContain(token);

    const done = await completeEnrolment(db, { token, password: PASSWORD, code: code(shown.secret, t0), now: t0, ip: ip() });
    expect(done.recoveryCodes).toHaveLength(10);
    expect(new Set(done.recoveryCodes).size).toBe(10);
    const [row] = await db.select().from(operators).where(eq(operators.name, 'ada'));
    expect(row).toMatchObject({ status: 'active', totpSecret: shown.secret });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row!.passwordHash).not.toContain(PASSWORD);
    // Used once: the link shows nothing more, and completing again is refused.
    expect(await readEnrolment(db, token, t0)).toBeNull();
    expect(
      await refusal(completeEnrolment(db, { token, password: PASSWORD, code: code(shown.secret, at(30_000)), now: at(30_000), ip: ip() })),
    ).toMatchObject({ code: 404 });
  });

  it('refuses an expired link and a wrong code, and keeps the link for a right code', async () => {
    const { token } = await createInvitedOperator(db, { name: 'late', role: 'manager', now: t0 });
    const secret = (await readEnrolment(db, token, t0))!.secret;
    const expired = at(OPERATOR_LIMITS.inviteTtlMs);
    expect(await readEnrolment(db, token, expired)).toBeNull();
    expect(
      await refusal(completeEnrolment(db, { token, password: PASSWORD, code: code(secret, expired), now: expired, ip: ip() })),
    ).toMatchObject({
      code: 404,
      message: expect.stringMatching(/expired or was already used/),
    });
    expect(await refusal(completeEnrolment(db, { token, password: PASSWORD, code: '000000', now: t0, ip: ip() }))).toMatchObject({
      code: 400,
    });
    await expect(completeEnrolment(db, { token, password: PASSWORD, code: code(secret, t0), now: t0, ip: ip() })).resolves.toMatchObject({
      name: 'late',
    });
  });

  it('is audited with the secrets redacted', async () => {
    const { name } = await enrolled('audited');
    const rows = (await db.select().from(operatorAudit)).filter(
      (r) => r.operatorName === name || (r.input as { name?: string }).name === name,
    );
    expect(rows.map((r) => [r.procedure, r.operatorName])).toEqual([
      ['operator/invite', 'ops:owner'],
      ['enrol/complete', name],
    ]);
    const text = JSON.stringify(rows);
    expect(text).not.toContain(PASSWORD);
    expect(rows[1]!.input).toEqual({ token: '[redacted]', password: '[redacted]', code: '[redacted]' });
    expect(rows[1]!.after).toMatchObject({ status: 'active' });
  });
});

describe('sign-in', () => {
  it('needs the password and a TOTP code, and refuses the same code twice (replay)', async () => {
    const op = await enrolled('grace', 'owner');
    const when = at(60_000);
    const signedIn = await signIn(db, { name: 'Grace', password: PASSWORD, code: code(op.secret, when), now: when, ip: ip() });
    expect(signedIn.operator).toEqual({ name: 'grace', role: 'owner' });
    expect(await resolveOperatorSession(db, signedIn.token, when)).toMatchObject({ name: 'grace', role: 'owner' });
    expect(await refusal(signIn(db, { name: 'grace', password: PASSWORD, code: code(op.secret, when), now: when, ip: ip() }))).toEqual({
      code: 401,
      message: 'The name, password or code is wrong.',
    });
  });

  it('gives the same refusal for a wrong name, a wrong password, a wrong code, and no code', async () => {
    const op = await enrolled('hopper');
    const when = at(120_000);
    const refusals = await Promise.all([
      refusal(signIn(db, { name: 'nobody', password: PASSWORD, code: code(op.secret, when), now: when, ip: ip() })),
      refusal(signIn(db, { name: 'hopper', password: 'wrong password here', code: code(op.secret, when), now: when, ip: ip() })),
      refusal(signIn(db, { name: 'hopper', password: PASSWORD, code: '123456', now: when, ip: ip() })),
      refusal(signIn(db, { name: 'hopper', password: PASSWORD, code: '', now: when, ip: ip() })),
    ]);
    expect(new Set(refusals.map((r) => JSON.stringify(r)))).toEqual(
      new Set([JSON.stringify({ code: 401, message: 'The name, password or code is wrong.' })]),
    );
  });

  it('takes a recovery code once', async () => {
    const op = await enrolled('lovelace');
    const when = at(180_000);
    const recovery = op.recoveryCodes[0]!;
    await expect(
      signIn(db, { name: 'lovelace', password: PASSWORD, code: recovery.toUpperCase(), now: when, ip: ip() }),
    ).resolves.toMatchObject({
      operator: { name: 'lovelace' },
    });
    expect(await refusal(signIn(db, { name: 'lovelace', password: PASSWORD, code: recovery, now: when, ip: ip() }))).toMatchObject({
      code: 401,
    });
    await expect(
      signIn(db, { name: 'lovelace', password: PASSWORD, code: op.recoveryCodes[1]!, now: when, ip: ip() }),
    ).resolves.toBeTruthy();
  });

  it('refuses an account that never enrolled, whatever it types', async () => {
    await createInvitedOperator(db, { name: 'pending', role: 'support', now: t0 });
    expect(await refusal(signIn(db, { name: 'pending', password: PASSWORD, code: '123456', now: t0, ip: ip() }))).toMatchObject({
      code: 401,
    });
  });

  it('limits failures per account (from many addresses) with a growing wait, and a right sign-in gives its count back', async () => {
    const op = await enrolled('target');
    const when = at(240_000);
    for (let i = 0; i < 5; i++) {
      expect(
        await refusal(signIn(db, { name: 'target', password: `guess number ${i}`, code: '000000', now: when, ip: ip() })),
      ).toMatchObject({ code: 401 });
    }
    const limited = await refusal(signIn(db, { name: 'target', password: PASSWORD, code: code(op.secret, when), now: when, ip: ip() }));
    expect(limited).toMatchObject({
      code: 429,
      message: expect.stringMatching(/^Too many failed sign-ins\. Please try again in \d+ minutes?\.$/),
    });
    // Another name is not held up by it.
    const other = await enrolled('bystander', 'owner', when);
    await expect(
      signIn(db, { name: 'bystander', password: PASSWORD, code: code(other.secret, at(270_000)), now: at(270_000), ip: ip() }),
    ).resolves.toBeTruthy();
  });

  it('audits the throttled sign-ins too (issue 31: every sign-in, refused or not, is in the trail)', async () => {
    await enrolled('throttled');
    const when = at(250_000);
    const alerts = jest.spyOn(console, 'error').mockImplementation(() => {});
    const answers = [];
    for (let i = 0; i < 8; i++) {
      answers.push((await refusal(signIn(db, { name: 'throttled', password: `guess ${i}`, code: '000000', now: when, ip: ip() }))).code);
    }
    alerts.mockRestore();
    expect(answers).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const trail = await db
      .select({ operatorId: operatorAudit.operatorId, input: operatorAudit.input, after: operatorAudit.after })
      .from(operatorAudit)
      .where(eq(operatorAudit.operatorName, 'throttled'))
      .orderBy(asc(operatorAudit.id));
    const signIns = trail.filter((e) => (e.input as { name?: string }).name === 'throttled');
    expect(signIns).toHaveLength(8);
    expect(signIns.map((e) => e.after)).toEqual([
      ...Array.from({ length: 5 }, () => ({ signedIn: false })),
      ...Array.from({ length: 3 }, () => ({ signedIn: false, outcome: 'throttled' })),
    ]);
    // The throttled ones keep the secrets out of the trail like the others.
    expect(signIns[7]!.input).toEqual({ name: 'throttled', password: '[redacted]', code: '[redacted]' });
    expect(signIns.every((e) => e.operatorId === null)).toBe(true);
  });

  it('limits failures per address, across names', async () => {
    const address = '203.0.113.9';
    const when = at(300_000);
    for (let i = 0; i < 20; i++) {
      expect(
        await refusal(signIn(db, { name: `guess${i}`, password: 'wrong password', code: '000000', now: when, ip: address })),
      ).toMatchObject({ code: 401 });
    }
    expect(
      await refusal(signIn(db, { name: 'someone', password: 'wrong password', code: '000000', now: when, ip: address })),
    ).toMatchObject({ code: 429 });
  });
});

describe('sessions', () => {
  async function session(name: string, when: Date) {
    const op = await enrolled(name, 'owner', when);
    const later = new Date(when.getTime() + 30_000);
    return { ...(await signIn(db, { name, password: PASSWORD, code: code(op.secret, later), now: later, ip: ip() })), when: later };
  }

  it('end after 30 minutes idle, and stay while used', async () => {
    const s = await session('idle', at(400_000));
    const step = OPERATOR_LIMITS.sessionIdleMs - 60_000;
    let now = s.when;
    for (let i = 0; i < 3; i++) {
      now = new Date(now.getTime() + step);
      expect(await resolveOperatorSession(db, s.token, now)).not.toBeNull();
    }
    expect(await resolveOperatorSession(db, s.token, new Date(now.getTime() + OPERATOR_LIMITS.sessionIdleMs))).toBeNull();
  });

  it('end 12 hours after sign-in even when used', async () => {
    const s = await session('absolute', at(500_000));
    let now = s.when;
    while (now.getTime() + 20 * 60_000 < s.expiresAt.getTime()) {
      now = new Date(now.getTime() + 20 * 60_000);
      expect(await resolveOperatorSession(db, s.token, now)).not.toBeNull();
    }
    expect(await resolveOperatorSession(db, s.token, s.expiresAt)).toBeNull();
  });

  it('end at sign-out, and at once when the operator is disabled', async () => {
    const a = await session('leaving', at(600_000));
    const b = await signIn(db, {
      name: 'leaving',
      password: PASSWORD,
      code: (await db.select().from(operators).where(eq(operators.name, 'leaving'))).map((o) => code(o.totpSecret!, at(660_000)))[0]!,
      now: at(660_000),
      ip: ip(),
    });
    const found = (await resolveOperatorSession(db, a.token, at(660_000)))!;
    await endOperatorSession(db, found.sessionId, at(660_000));
    expect(await resolveOperatorSession(db, a.token, at(661_000))).toBeNull();
    expect(await resolveOperatorSession(db, b.token, at(661_000))).not.toBeNull();
    await disableOperator(db, { operatorId: found.operatorId, by: { operatorId: null, name: 'test', ip: '127.0.0.1' }, now: at(662_000) });
    expect(await resolveOperatorSession(db, b.token, at(662_000))).toBeNull();
  });
});

describe('channels an operator sees', () => {
  it('all for an owner, the granted ones for a manager, and 404 alike for another or a missing one', async () => {
    const owner = await enrolled('chief', 'owner');
    const manager = await enrolled('aurora.manager', 'manager', t0, ['AURORA']);
    const managerRow = (await db.select().from(operators).where(eq(operators.name, manager.name)))[0]!;
    const all = await db.select({ key: channels.key }).from(channels);
    const ownerSession = { sessionId: 0, operatorId: 0, name: owner.name, role: 'owner' as const };
    const managerSession = { sessionId: 0, operatorId: managerRow.id, name: manager.name, role: 'manager' as const };
    expect((await listConsoleChannels(db, ownerSession)).map((c) => c.key)).toEqual(all.map((c) => c.key).sort());
    expect((await listConsoleChannels(db, managerSession)).map((c) => c.key)).toEqual(['AURORA']);
    await expect(operatorChannel(db, managerSession, 'AURORA')).resolves.toMatchObject({ key: 'AURORA' });
    const lumen = await refusal(operatorChannel(db, managerSession, 'LUMEN'));
    const none = await refusal(operatorChannel(db, managerSession, 'NOSUCH'));
    expect([lumen.code, none.code]).toEqual([404, 404]);
    expect(lumen.message).toBe(none.message);
  });
});

it('can never store a channel with the reserved key OPS', async () => {
  await expect(
    db.insert(channels).values({ key: 'OPS', host: 'ops.localhost', name: 'x', brandName: 'x', labelList: '1' }),
  ).rejects.toThrow();
});

describe('the first owner and the demo owner (issue 31)', () => {
  it('ops:owner makes one owner with a working link, then refuses unless asked again', async () => {
    // Earlier tests of this file made owners; a fresh count is what the command sees.
    await expect(makeFirstOwner(db, { name: 'founder', now: t0 })).rejects.toThrow(/there is already an owner/);
    const { token } = await makeFirstOwner(db, { name: 'founder', now: t0, again: true });
    expect(await readEnrolment(db, token, t0)).toMatchObject({ name: 'founder', role: 'owner' });
  });

  it('npm run demo prints a fresh link each start until the demo owner enrols, and the earlier link stops working', async () => {
    const first = (await demoOwnerEnrolment(db, t0))!;
    const second = (await demoOwnerEnrolment(db, at(1000)))!;
    expect(await readEnrolment(db, first.token, at(1000))).toBeNull();
    const shown = (await readEnrolment(db, second.token, at(1000)))!;
    expect(shown).toMatchObject({ name: DEMO_OWNER, role: 'owner' });
    await completeEnrolment(db, { token: second.token, password: PASSWORD, code: code(shown.secret, at(1000)), now: at(1000), ip: ip() });
    expect(await demoOwnerEnrolment(db, at(2000))).toBeNull();
  });
});
