import { and, asc, eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { apiCall, type ApiAnswer } from '@/test/api';
import { apiKeyOf, FIXTURE_PASSWORD, OPS_HOST, signedInOperator, totpCode, type TestOperator } from '@/test/operator-fixtures';
import { operatorApiKeys, operatorAudit, operatorPasskeys, operators } from '@/lib/db/schema';
import { AppError } from '@/lib/procedure/errors';
import {
  changeOperatorAccess,
  completeEnrolment,
  createOperatorSession,
  disableOperator,
  enableOperator,
  listTeam,
  readEnrolment,
  resetSecondFactor,
  signIn,
} from './accounts';
import { listApiKeys, mintApiKey, resolveApiKey } from './api-keys';
import type { OperatorSession } from '../procedure/scope';

// issue 31: the team (roles, grants, disable/enable, second-factor reset), re-authentication for sensitive writes, and
// per-operator API keys, as an owner, an operator and an attacker notice them; on PGlite and (scripts/with-postgres.sh)
// PostgreSQL. Calls go through the real dispatcher on the operator host where the rule is the dispatcher's.

const t0 = new Date('2026-11-26T08:00:00Z');
const db = seededTestDb(t0);
const at = (ms: number) => new Date(t0.getTime() + ms);
/** Sign-in of the fixtures happens 30 s after enrolment at t0. */
const SIGNED_IN = at(30_000);

let seq = 0;
/** A fresh operator name per test, so tests do not share accounts. */
const fresh = (what: string) => `${what}.${++seq}`;

function call(path: string, body: unknown, options: { cookie?: string; key?: string; now?: Date; ip?: string } = {}): Promise<ApiAnswer> {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  return apiCall(db, path, body, { host: OPS_HOST, headers, now: options.now ?? at(60_000), ip: options.ip });
}

async function refusal(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

const by = (op: TestOperator) => ({ operatorId: op.operatorId, name: op.name, ip: '203.0.113.1' });
const sessionOf = (op: TestOperator): OperatorSession => ({ sessionId: 0, operatorId: op.operatorId, name: op.name, role: op.role });

let owner: TestOperator;
// Each wrong key is logged (docs/security.md); those lines have their own test in lib/server/operator.test.ts.
beforeEach(() => jest.spyOn(console, 'warn').mockImplementation(() => {}));
afterEach(() => jest.restoreAllMocks());
beforeAll(async () => {
  owner = await signedInOperator(db, { name: 'team.owner', role: 'owner', now: t0 });
});

describe('the team an owner sees and changes', () => {
  it('lists every operator with role, status, channels, second factor and last sign-in', async () => {
    const manager = await signedInOperator(db, { name: fresh('list.manager'), role: 'manager', channels: ['LUMEN', 'AURORA'], now: t0 });
    const team = await listTeam(db);
    expect(team.find((m) => m.name === manager.name)).toMatchObject({
      role: 'manager',
      status: 'active',
      channels: ['AURORA', 'LUMEN'],
      secondFactor: true,
      lastSignInAt: SIGNED_IN.toISOString(),
    });
    // Only owners see the team.
    expect((await call('/ops/api/team/list', {}, { cookie: manager.cookie })).code).toBe(403);
    const listed = await call('/ops/api/team/list', {}, { cookie: owner.cookie });
    expect(listed.code).toBe(200);
    expect(listed.text).not.toMatch(/passwordHash|totpSecret|\$argon2/);
  });

  it('changes a role and grants, audited with before and after; the manager sees the new channels on the next call', async () => {
    const manager = await signedInOperator(db, { name: fresh('grant.manager'), role: 'manager', channels: ['AURORA'], now: t0 });
    const changed = await call(
      '/ops/api/team/update',
      { operatorId: manager.operatorId, role: 'manager', channels: ['LUMEN'] },
      { cookie: owner.cookie },
    );
    expect(changed).toMatchObject({ code: 200, data: { name: manager.name, role: 'manager', channels: ['LUMEN'] } });
    const list = await call('/ops/api/channel/list', {}, { cookie: manager.cookie });
    expect((list.data as { channels: { key: string }[] }).channels.map((c) => c.key)).toEqual(['LUMEN']);
    const [entry] = await db
      .select()
      .from(operatorAudit)
      .where(and(eq(operatorAudit.procedure, 'team/update'), eq(operatorAudit.operatorId, owner.operatorId)));
    expect(entry).toMatchObject({
      operatorName: 'team.owner',
      before: { name: manager.name, role: 'manager', channels: ['AURORA'] },
      after: { name: manager.name, role: 'manager', channels: ['LUMEN'] },
    });
  });

  it('refuses an owner demoting or disabling themself, and never leaves the deployment without an active owner', async () => {
    const self = await refusal(
      changeOperatorAccess(db, { operatorId: owner.operatorId, role: 'manager', channels: [], by: by(owner), now: t0 }),
    );
    expect(self).toEqual({ code: 409, message: 'You cannot do this to your own account. Ask another owner.' });
    expect(await refusal(disableOperator(db, { operatorId: owner.operatorId, by: by(owner), now: t0 }))).toMatchObject({ code: 409 });
    // From the command line (no operator) or another owner: the last active owner still stays.
    const others = (await listTeam(db)).filter((m) => m.role === 'owner' && m.status === 'active' && m.id !== owner.operatorId);
    for (const other of others) await disableOperator(db, { operatorId: other.id, by: by(owner), now: t0 });
    const commandLine = { operatorId: null, name: 'ops', ip: 'command line' };
    const last = await refusal(disableOperator(db, { operatorId: owner.operatorId, by: commandLine, now: t0 }));
    expect(last).toEqual({
      code: 409,
      message: 'This is the last active owner, and the deployment must keep one. Make another owner first.',
    });
    expect(
      await refusal(changeOperatorAccess(db, { operatorId: owner.operatorId, role: 'support', channels: [], by: commandLine, now: t0 })),
    ).toMatchObject({
      code: 409,
    });
    expect(await refusal(resetSecondFactor(db, { operatorId: owner.operatorId, by: commandLine, now: t0 }))).toMatchObject({ code: 409 });
    const [row] = await db.select().from(operators).where(eq(operators.id, owner.operatorId));
    expect(row).toMatchObject({ role: 'owner', status: 'active' });
  });

  it('disables an operator: their open session is refused on its next call, their key too; enabling lets them sign in again', async () => {
    const manager = await signedInOperator(db, { name: fresh('gone.manager'), role: 'manager', channels: ['AURORA'], now: t0 });
    const { key } = await apiKeyOf(db, manager, { now: t0, channels: ['AURORA'] });
    expect((await call('/ops/api/channel/list', {}, { cookie: manager.cookie })).code).toBe(200);
    expect((await call('/ops/api/channel/list', {}, { key })).code).toBe(200);

    expect((await call('/ops/api/team/disable', { operatorId: manager.operatorId }, { cookie: owner.cookie })).code).toBe(200);
    expect((await call('/ops/api/channel/list', {}, { cookie: manager.cookie })).code).toBe(401);
    expect((await call('/ops/api/channel/list', {}, { key })).code).toBe(401);
    expect((await listTeam(db)).find((m) => m.id === manager.operatorId)?.status).toBe('disabled');

    expect((await call('/ops/api/team/enable', { operatorId: manager.operatorId }, { cookie: owner.cookie })).code).toBe(200);
    // The sessions that ended stay ended; the key works again with its operator; a new sign-in works.
    expect((await call('/ops/api/channel/list', {}, { cookie: manager.cookie })).code).toBe(401);
    expect((await call('/ops/api/channel/list', {}, { key })).code).toBe(200);
    const again = await signIn(db, {
      name: manager.name,
      password: FIXTURE_PASSWORD,
      code: totpCode(manager.secret, at(90_000)),
      now: at(90_000),
      ip: '203.0.113.9',
    });
    expect(again.operator.name).toBe(manager.name);
  });

  it('resets a second factor: sessions end, the old password and codes stop, and a new link sets both again', async () => {
    const support = await signedInOperator(db, { name: fresh('reset.support'), role: 'support', channels: ['AURORA'], now: t0 });
    // A passkey on the lost phone: the reset takes it away with the authenticator app's secret.
    await db.insert(operatorPasskeys).values({
      operatorId: support.operatorId,
      credentialId: `lost-phone-${support.operatorId}`,
      publicKey: 'pQECAyYgASFYIA',
      counter: 3,
      transports: ['internal'],
      name: 'Lost phone',
      createdAt: t0,
    });
    const key = (await apiKeyOf(db, support, { now: t0, label: 'support bot', channels: ['AURORA'] })).key;
    expect((await call('/ops/api/session/me', {}, { key })).code).toBe(200);
    const reset = await call('/ops/api/team/resetSecondFactor', { operatorId: support.operatorId }, { cookie: owner.cookie });
    expect(reset).toMatchObject({
      code: 200,
      data: { name: support.name, enrolUrl: expect.stringMatching(/\/enrol\/[A-Za-z0-9_-]{40,}$/) },
    });
    expect((await call('/ops/api/session/me', {}, { cookie: support.cookie })).code).toBe(401);
    const later = at(120_000);
    const refused = await refusal(
      signIn(db, { name: support.name, password: FIXTURE_PASSWORD, code: totpCode(support.secret, later), now: later, ip: '203.0.113.10' }),
    );
    expect(refused).toEqual({ code: 401, message: 'The name, password or code is wrong.' });
    const team = await listTeam(db);
    expect(team.find((m) => m.id === support.operatorId)).toMatchObject({ status: 'invited', secondFactor: false });

    const token = (reset.data as { enrolUrl: string }).enrolUrl.split('/enrol/')[1]!;
    const shown = (await readEnrolment(db, token, later))!;
    expect(shown.secret).not.toBe(support.secret);
    await completeEnrolment(db, {
      token,
      password: 'a brand new password',
      code: totpCode(shown.secret, later),
      now: later,
      ip: '203.0.113.11',
    });
    const next = at(150_000);
    const signedIn = await signIn(db, {
      name: support.name,
      password: 'a brand new password',
      code: totpCode(shown.secret, next),
      now: next,
      ip: '203.0.113.12',
    });
    expect(signedIn.operator).toEqual({ name: support.name, role: 'support' });
    // The key made before the reset stays revoked once they are back (red team: it worked again after re-enrolment).
    expect((await call('/ops/api/session/me', {}, { key, now: next })).code).toBe(401);
    const [entry] = await db.select().from(operatorAudit).where(eq(operatorAudit.procedure, 'team/resetSecondFactor'));
    expect(entry).toMatchObject({
      before: { secondFactor: true, status: 'active', deviceKeys: 1, apiKeysLive: 1 },
      after: { secondFactor: false, status: 'invited', deviceKeys: 0, apiKeysLive: 0 },
    });
    expect(await db.select().from(operatorPasskeys).where(eq(operatorPasskeys.operatorId, support.operatorId))).toEqual([]);
  });

  it('is for owners only: a manager or support is refused every team write', async () => {
    const manager = await signedInOperator(db, { name: fresh('nosy.manager'), role: 'manager', channels: ['AURORA'], now: t0 });
    for (const [path, body] of [
      ['/ops/api/team/update', { operatorId: owner.operatorId, role: 'support', channels: [] }],
      ['/ops/api/team/disable', { operatorId: owner.operatorId }],
      ['/ops/api/team/enable', { operatorId: owner.operatorId }],
      ['/ops/api/team/resetSecondFactor', { operatorId: owner.operatorId }],
    ] as const) {
      expect({ path, code: (await call(path, body, { cookie: manager.cookie })).code }).toEqual({ path, code: 403 });
    }
  });
});

describe('ids out of range (red team: HTTP 500 from the database)', () => {
  it('are refused with the field named, never a server error', async () => {
    const boss = await signedInOperator(db, { name: fresh('range.owner'), role: 'owner', now: t0 });
    const now = at(60_000);
    for (const [path, body, field] of [
      ['/ops/api/team/disable', { operatorId: 99_999_999_999 }, 'operatorId'],
      ['/ops/api/team/enable', { operatorId: 2_147_483_648 }, 'operatorId'],
      ['/ops/api/team/resetSecondFactor', { operatorId: 99_999_999_999 }, 'operatorId'],
      ['/ops/api/apiKey/revoke', { id: 99_999_999_999 }, 'id'],
      ['/ops/api/passkey/rename', { id: 99_999_999_999, name: 'laptop' }, 'id'],
      ['/ops/api/passkey/remove', { id: 99_999_999_999 }, 'id'],
      ['/ops/api/audit/list', { after: '999999999999999.999999999999999' }, 'after'],
    ] as const) {
      const answer = await call(path, body, { cookie: boss.cookie, now });
      expect({ path, status: answer.status, code: answer.code, field: answer.message.split(':')[0] }).toEqual({
        path,
        status: 200,
        code: 400,
        field,
      });
    }
  });
});

describe('re-authentication for sensitive writes', () => {
  it('refuses a role change on a session not proved within 5 minutes with its own code, and lets it through after confirming', async () => {
    const manager = await signedInOperator(db, { name: fresh('reauth.manager'), role: 'manager', channels: ['AURORA'], now: t0 });
    const change = { operatorId: manager.operatorId, role: 'support', channels: ['AURORA'] };
    // Sign-in was at SIGNED_IN: within 5 minutes it counts; after, it does not.
    const stale = at(30_000 + 5 * 60_000);
    const refused = await call('/ops/api/team/update', change, { cookie: owner.cookie, now: stale });
    expect(refused).toMatchObject({
      code: 403,
      message: 'Confirm it is you: enter your password and a new code from your authenticator app, then try again.',
      data: { reauth: true },
    });
    expect((await listTeam(db)).find((m) => m.id === manager.operatorId)?.role).toBe('manager');

    // A wrong password: the sign-in refusal, and still no change.
    const wrong = await call(
      '/ops/api/session/confirm',
      { password: 'not it', code: totpCode(owner.secret, stale) },
      { cookie: owner.cookie, now: stale },
    );
    expect(wrong).toMatchObject({ code: 401, message: 'The name, password or code is wrong.' });
    const codeNow = totpCode(owner.secret, stale);
    const confirmed = await call(
      '/ops/api/session/confirm',
      { password: FIXTURE_PASSWORD, code: codeNow },
      { cookie: owner.cookie, now: stale },
    );
    expect(confirmed).toMatchObject({ code: 200, data: { provedUntil: at(30_000 + 10 * 60_000).toISOString() } });
    // The same code again is a replay.
    const replay = await call(
      '/ops/api/session/confirm',
      { password: FIXTURE_PASSWORD, code: codeNow },
      { cookie: owner.cookie, now: stale },
    );
    expect(replay).toMatchObject({ code: 401, message: 'The name, password or code is wrong.' });

    expect((await call('/ops/api/team/update', change, { cookie: owner.cookie, now: stale })).code).toBe(200);
    expect((await listTeam(db)).find((m) => m.id === manager.operatorId)?.role).toBe('support');
  });

  it('takes a recovery code to sign in, but asks for a TOTP code before a sensitive write, and only takes a TOTP code then', async () => {
    const op = await signedInOperator(db, { name: fresh('lost.phone'), role: 'owner', now: t0 });
    const target = await signedInOperator(db, { name: fresh('lost.target'), role: 'support', channels: ['AURORA'], now: t0 });
    const when = at(60_000);
    const codes = op.recoveryCodes;
    const session = await signIn(db, { name: op.name, password: FIXTURE_PASSWORD, code: codes[0]!, now: when, ip: '203.0.113.30' });
    const cookie = `__Host-ops=${session.token}`;
    expect((await call('/ops/api/team/disable', { operatorId: target.operatorId }, { cookie, now: when })).data).toEqual({ reauth: true });
    const withRecovery = await call('/ops/api/session/confirm', { password: FIXTURE_PASSWORD, code: codes[1]! }, { cookie, now: when });
    expect(withRecovery).toMatchObject({ code: 401, message: 'The name, password or code is wrong.' });
    const withTotp = await call(
      '/ops/api/session/confirm',
      { password: FIXTURE_PASSWORD, code: totpCode(op.secret, when) },
      { cookie, now: when },
    );
    expect(withTotp.code).toBe(200);
    expect((await call('/ops/api/team/disable', { operatorId: target.operatorId }, { cookie, now: when })).code).toBe(200);
  });

  it('counts confirmations against the sign-in limits of the account', async () => {
    const alerts = jest.spyOn(console, 'error').mockImplementation(() => {});
    const op = await signedInOperator(db, { name: fresh('guessed.owner'), role: 'owner', now: t0 });
    const when = at(10 * 60_000);
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      codes.push(
        (await call('/ops/api/session/confirm', { password: `guess ${i}`, code: '000000' }, { cookie: op.cookie, now: when })).code,
      );
    }
    expect(codes).toEqual([401, 401, 401, 401, 401, 429]);
    expect(String(alerts.mock.calls[0]![0])).toMatch(/^\[alert\] operator console: 5 failed sign-ins \(name\)/);
    // The throttled one is in the trail too (issue 31: every confirmation, refused or not, is recorded).
    const trail = await db
      .select({ after: operatorAudit.after })
      .from(operatorAudit)
      .where(and(eq(operatorAudit.procedure, 'session/confirm'), eq(operatorAudit.operatorId, op.operatorId)))
      .orderBy(asc(operatorAudit.id));
    expect(trail.map((e) => e.after)).toEqual([
      ...Array.from({ length: 5 }, () => ({ confirmed: false })),
      { confirmed: false, outcome: 'throttled' },
    ]);
  });

  it('asks nothing of a session proved in the last 5 minutes, and nothing of a write that is not sensitive', async () => {
    const boss = await signedInOperator(db, { name: fresh('fresh.owner'), role: 'owner', now: t0 });
    const support = await signedInOperator(db, { name: fresh('fresh.support'), role: 'support', channels: ['AURORA'], now: t0 });
    expect(
      (await call('/ops/api/team/disable', { operatorId: support.operatorId }, { cookie: boss.cookie, now: at(4 * 60_000) })).code,
    ).toBe(200);
    // A session that never proved anything (made without sign-in) may still save a channel's filings: not in the list.
    const unproved = `__Host-ops=${(await createOperatorSession(db, { operatorId: owner.operatorId, now: at(60_000), ip: null })).token}`;
    const filings = { channel: 'AURORA', icpFiling: '', publicSecurityFiling: '', blockchainFiling: '' };
    expect((await call('/ops/api/channel/saveCompliance', filings, { cookie: unproved })).code).toBe(200);
    expect((await call('/ops/api/team/disable', { operatorId: support.operatorId }, { cookie: unproved })).data).toEqual({ reauth: true });
    // Enabling an operator again and inviting one give a person back a way in: a stolen cookie must not (red team).
    expect((await call('/ops/api/team/enable', { operatorId: support.operatorId }, { cookie: unproved })).data).toEqual({ reauth: true });
    const invite = { name: fresh('cookie.minted'), role: 'owner', channels: [] };
    expect((await call('/ops/api/operator/invite', invite, { cookie: unproved })).data).toEqual({ reauth: true });
    expect((await listTeam(db)).some((m) => m.name === invite.name)).toBe(false);
  });
});

describe('API keys', () => {
  it('are shown once and kept as a SHA-256; the list shows the prefix, never the key', async () => {
    const boss = await signedInOperator(db, { name: fresh('bot.owner'), role: 'owner', now: t0 });
    const created = await call(
      '/ops/api/apiKey/create',
      { label: 'deploy bot', role: 'manager', channels: ['AURORA'] },
      { cookie: boss.cookie },
    );
    expect(created).toMatchObject({ code: 200, data: { apiKey: { label: 'deploy bot', role: 'manager', channels: ['AURORA'] } } });
    const { key, apiKey } = created.data as { key: string; apiKey: { id: number; prefix: string } };
    expect(key).toMatch(/^sfk_[A-Za-z0-9_-]{43}$/);
    expect(key.startsWith(apiKey.prefix)).toBe(true);
    const [row] = await db.select().from(operatorApiKeys).where(eq(operatorApiKeys.id, apiKey.id));
    expect(JSON.stringify(row)).not.toContain(key.slice(apiKey.prefix.length));
    const listed = await call('/ops/api/apiKey/list', {}, { cookie: boss.cookie });
    expect(listed.text).toContain(apiKey.prefix);
    expect(listed.text).not.toContain(key);
    const audit = await db.select().from(operatorAudit).where(eq(operatorAudit.procedure, 'apiKey/create'));
    expect(JSON.stringify(audit)).not.toContain(key);
  });

  it('act as their operator with the key’s role and channels, through the same procedures, without a cookie', async () => {
    const manager = await signedInOperator(db, { name: fresh('bot.manager'), role: 'manager', channels: ['AURORA', 'LUMEN'], now: t0 });
    const { key } = await apiKeyOf(db, manager, { now: t0, role: 'support', channels: ['AURORA'] });
    expect(await call('/ops/api/session/me', {}, { key })).toMatchObject({ code: 200, data: { name: manager.name, role: 'support' } });
    const list = await call('/ops/api/channel/list', {}, { key });
    expect((list.data as { channels: { key: string }[] }).channels.map((c) => c.key)).toEqual(['AURORA']);
    expect((await call('/ops/api/channel/detail', { channel: 'AURORA' }, { key })).code).toBe(200);
    expect((await call('/ops/api/channel/detail', { channel: 'LUMEN' }, { key })).code).toBe(404);
    // A support key is not the manager: an owner's write is refused by role.
    expect((await call('/ops/api/operator/invite', { name: fresh('x'), role: 'support', channels: [] }, { key })).code).toBe(403);
  });

  it('never make a sensitive write, even an owner’s key', async () => {
    const { key } = await apiKeyOf(db, owner, { now: t0 });
    const target = await signedInOperator(db, { name: fresh('kept.manager'), role: 'manager', channels: ['AURORA'], now: t0 });
    for (const [path, body] of [
      ['/ops/api/team/disable', { operatorId: target.operatorId }],
      ['/ops/api/apiKey/create', { label: 'another', role: 'owner', channels: [] }],
      ['/ops/api/session/confirm', { password: FIXTURE_PASSWORD, code: '123456' }],
    ] as const) {
      const answer = await call(path, body, { key });
      expect({ path, code: answer.code, message: answer.message }).toEqual({
        path,
        code: 403,
        message: 'This change needs a person at the console: an API key cannot make it.',
      });
    }
    expect((await listTeam(db)).find((m) => m.id === target.operatorId)?.status).toBe('active');
  });

  it('are capped at the operator’s role and channels, when made and as the operator changes', async () => {
    const manager = await signedInOperator(db, { name: fresh('capped.manager'), role: 'manager', channels: ['AURORA', 'LUMEN'], now: t0 });
    const higher = await call('/ops/api/apiKey/create', { label: 'k', role: 'owner', channels: [] }, { cookie: manager.cookie });
    expect(higher).toMatchObject({ code: 400, message: 'A key’s role cannot be higher than its operator’s.', data: { field: 'role' } });
    const elsewhere = await call('/ops/api/apiKey/create', { label: 'k', role: 'manager', channels: ['GIFT'] }, { cookie: manager.cookie });
    expect(elsewhere).toMatchObject({ code: 400, data: { field: 'channels' } });
    expect(await db.select().from(operatorApiKeys).where(eq(operatorApiKeys.operatorId, manager.operatorId))).toEqual([]);

    const { key } = await apiKeyOf(db, manager, { now: t0, channels: ['AURORA', 'LUMEN'] });
    await changeOperatorAccess(db, { operatorId: manager.operatorId, role: 'support', channels: ['LUMEN'], by: by(owner), now: t0 });
    const acting = await resolveApiKey(db, { key, now: at(60_000), ip: '203.0.113.20' });
    expect(acting).toMatchObject({ role: 'support', apiKey: { channels: ['LUMEN'] } });
  });

  it('an operator lists and revokes their own; an owner sees and revokes everyone’s; a revoked key stops at once', async () => {
    const a = await signedInOperator(db, { name: fresh('keys.a'), role: 'manager', channels: ['AURORA'], now: t0 });
    const b = await signedInOperator(db, { name: fresh('keys.b'), role: 'manager', channels: ['AURORA'], now: t0 });
    const ka = await apiKeyOf(db, a, { now: t0, channels: ['AURORA'] });
    const kb = await apiKeyOf(db, b, { now: t0, channels: ['AURORA'] });
    const aSees = (await listApiKeys(db, sessionOf(a))).map((k) => k.id);
    expect(aSees).toEqual([ka.id]);
    expect((await listApiKeys(db, sessionOf(owner))).map((k) => k.id)).toEqual(expect.arrayContaining([ka.id, kb.id]));
    // Another's key is as unknown as a missing one.
    expect(await call('/ops/api/apiKey/revoke', { id: kb.id }, { cookie: a.cookie })).toMatchObject({
      code: 404,
      message: 'There is no such API key among those you manage.',
    });
    expect((await call('/ops/api/session/me', {}, { key: kb.key })).code).toBe(200);
    // An owner's key is not the owner at the console: it sees and revokes its operator's keys only (red team).
    const ownerKey = await apiKeyOf(db, owner, { now: t0, label: 'owner bot' });
    const keySees = ((await call('/ops/api/apiKey/list', {}, { key: ownerKey.key })).data as { keys: { id: number }[] }).keys;
    expect(keySees.map((k) => k.id)).toContain(ownerKey.id);
    expect(keySees.map((k) => k.id)).not.toContain(kb.id);
    expect((await call('/ops/api/apiKey/revoke', { id: kb.id }, { key: ownerKey.key })).code).toBe(404);
    expect((await call('/ops/api/session/me', {}, { key: kb.key })).code).toBe(200);
    expect((await call('/ops/api/apiKey/revoke', { id: ka.id }, { cookie: a.cookie })).code).toBe(200);
    expect((await call('/ops/api/apiKey/revoke', { id: kb.id }, { cookie: owner.cookie })).code).toBe(200);
    for (const key of [ka.key, kb.key]) {
      expect(await call('/ops/api/session/me', {}, { key })).toMatchObject({
        code: 401,
        message: 'The API key is unknown or revoked, or its operator is disabled.',
      });
    }
  });

  it('a buyer’s token or a made-up key on the operator host is no key', async () => {
    for (const key of ['not-a-key', `sfk_${'a'.repeat(43)}`]) {
      expect((await call('/ops/api/channel/list', {}, { key })).code).toBe(401);
    }
  });

  it('ops:key mints one for an active operator, with the operator’s role and channels unless told, audited as the command', async () => {
    const manager = await signedInOperator(db, { name: fresh('cli.manager'), role: 'manager', channels: ['LUMEN'], now: t0 });
    const minted = await mintApiKey(db, { operator: manager.name.toUpperCase(), now: t0 });
    expect(minted.apiKey).toMatchObject({ operator: manager.name, role: 'manager', channels: ['LUMEN'] });
    expect((await call('/ops/api/channel/detail', { channel: 'LUMEN' }, { key: minted.key })).code).toBe(200);
    const [entry] = await db
      .select()
      .from(operatorAudit)
      .where(and(eq(operatorAudit.procedure, 'apiKey/create'), eq(operatorAudit.operatorName, 'ops:key')));
    expect(entry).toMatchObject({ ip: 'command line', operatorId: null });
    await disableOperator(db, { operatorId: manager.operatorId, by: by(owner), now: t0 });
    await expect(mintApiKey(db, { operator: manager.name, now: t0 })).rejects.toThrow(/disabled: a key works only for an active operator/);
    await expect(mintApiKey(db, { operator: 'nobody.here', now: t0 })).rejects.toThrow(/no operator called nobody.here/);
    await enableOperator(db, { operatorId: manager.operatorId, by: by(owner), now: t0 });
  });
});
