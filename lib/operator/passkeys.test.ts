import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { FIXTURE_PASSWORD, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { softwareAuthenticator, type SoftwareAuthenticator } from '@/test/software-authenticator';
import { operatorAudit, operatorPasskeyCeremonies, operatorPasskeys, operators } from '@/lib/db/schema';
import { sweepExpiredRecords } from '@/lib/jobs/retention';
import { AppError } from '@/lib/procedure/errors';
import { OPERATOR_LIMITS, resolveOperatorSession } from './accounts';
import {
  PASSKEY_LIMITS,
  finishPasskeyRegistration,
  finishPasskeySignIn,
  removePasskey,
  renamePasskey,
  secondFactorsOf,
  startPasskeyRegistration,
  startPasskeySignIn,
  type RelyingParty,
} from './passkeys';

// issue 31, "a second factor: TOTP … and/or a passkey (WebAuthn)": what an operator (and an attacker replaying,
// phishing or cloning) notices, with real WebAuthn answers from a software authenticator, on PGlite and PostgreSQL.

const t0 = new Date('2026-11-26T08:00:00Z');
const db = seededTestDb(t0);
const at = (ms: number) => new Date(t0.getTime() + ms);
const rp: RelyingParty = { rpId: 'ops.localhost', origin: 'http://ops.localhost:3000', name: 'Storefront console' };
const console_ = { origin: rp.origin, rpId: rp.rpId };

let ipSeq = 0;
const ip = () => `203.0.113.${++ipSeq}`;

async function refusal(promise: Promise<unknown>): Promise<{ code: number; key: string | undefined }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, key: error.text?.key };
    throw error;
  }
  throw new Error('expected a refusal');
}

const actor = (op: TestOperator) => ({ operatorId: op.operatorId, name: op.name, ip: '127.0.0.1' });

/** An operator (enrolled with TOTP) who added `key` as a passkey called `name` at `when`. */
async function withPasskey(op: TestOperator, key: SoftwareAuthenticator, when = t0, name = 'Work laptop') {
  const { ceremony, options } = await startPasskeyRegistration(db, { operator: actor(op), now: when, rp });
  return finishPasskeyRegistration(db, { operator: actor(op), ceremony, response: key.register(options, console_), name, now: when, rp });
}

async function passkeySignIn(op: TestOperator, key: SoftwareAuthenticator, when: Date, answerAt = console_) {
  const started = await startPasskeySignIn(db, { name: op.name, now: when, ip: ip(), rp });
  const response = key.authenticate(started.options, answerAt);
  return {
    started,
    response,
    done: finishPasskeySignIn(db, {
      name: op.name,
      password: FIXTURE_PASSWORD,
      ceremony: started.ceremony,
      response,
      now: when,
      ip: '127.0.0.1',
      rp,
    }),
  };
}

describe('adding a passkey on the Account page', () => {
  it('verifies the authenticator’s answer, lists the passkey, and audits it with the credential id but never the public key', async () => {
    const op = await signedInOperator(db, { name: 'pk.adder', role: 'manager', channels: ['AURORA'], now: t0 });
    const key = softwareAuthenticator();
    const { ceremony, options } = await startPasskeyRegistration(db, { operator: actor(op), now: t0, rp });
    expect(options.rp).toEqual({ id: 'ops.localhost', name: 'Storefront console' });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'preferred', userVerification: 'preferred' });
    const added = await finishPasskeyRegistration(db, {
      operator: actor(op),
      ceremony,
      response: key.register(options, console_),
      name: '  Work laptop ',
      now: t0,
      rp,
    });
    expect(added).toMatchObject({ name: 'Work laptop', lastUsedAt: null });
    expect(await secondFactorsOf(db, op.operatorId)).toEqual({
      totp: true,
      recoveryCodesLeft: OPERATOR_LIMITS.recoveryCodes,
      passkeys: [{ id: added.id, name: 'Work laptop', createdAt: t0, lastUsedAt: null }],
    });
    const [stored] = await db.select().from(operatorPasskeys).where(eq(operatorPasskeys.id, added.id));
    const trail = await db.select().from(operatorAudit).where(eq(operatorAudit.procedure, 'passkey/add'));
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({
      operatorId: op.operatorId,
      before: null,
      after: { credentialId: key.credentialId, name: 'Work laptop' },
    });
    expect(JSON.stringify(trail)).not.toContain(stored!.publicKey);
    // The same device is not offered for registration twice.
    const again = await startPasskeyRegistration(db, { operator: actor(op), now: t0, rp });
    expect(again.options.excludeCredentials?.map((c) => c.id)).toEqual([key.credentialId]);
  });

  it('refuses an answer made for another site, a replayed or expired ceremony, and another operator’s ceremony', async () => {
    const op = await signedInOperator(db, { name: 'pk.refused', role: 'owner', now: t0 });
    const other = await signedInOperator(db, { name: 'pk.other', role: 'owner', now: t0 });
    const key = softwareAuthenticator();
    const attempt = async (answerAt: { origin: string; rpId: string }, who = op, when = t0) => {
      const { ceremony, options } = await startPasskeyRegistration(db, { operator: actor(op), now: t0, rp });
      const response = key.register(options, answerAt);
      return {
        ceremony,
        response,
        done: finishPasskeyRegistration(db, { operator: actor(who), ceremony, response, name: 'k', now: when, rp }),
      };
    };
    const notAdded = { code: 409, key: 'opsPasskeyNotAdded' };
    expect(await refusal((await attempt({ origin: 'https://ops.evil.example', rpId: rp.rpId })).done)).toEqual(notAdded);
    expect(await refusal((await attempt({ origin: rp.origin, rpId: 'evil.example' })).done)).toEqual(notAdded);
    expect(await refusal((await attempt(console_, other)).done)).toEqual(notAdded);
    expect(await refusal((await attempt(console_, op, at(PASSKEY_LIMITS.ceremonyTtlMs))).done)).toEqual(notAdded);
    const good = await attempt(console_);
    await good.done;
    const replay = finishPasskeyRegistration(db, {
      operator: actor(op),
      ceremony: good.ceremony,
      response: good.response,
      name: 'k2',
      now: t0,
      rp,
    });
    expect(await refusal(replay)).toEqual(notAdded);
    expect((await secondFactorsOf(db, op.operatorId)).passkeys.map((p) => p.name)).toEqual(['k']);
    expect((await secondFactorsOf(db, other.operatorId)).passkeys).toEqual([]);
  });

  it('renames and removes the operator’s own passkeys only, audited', async () => {
    const op = await signedInOperator(db, { name: 'pk.renamer', role: 'support', channels: ['AURORA'], now: t0 });
    const stranger = await signedInOperator(db, { name: 'pk.stranger', role: 'owner', now: t0 });
    const added = await withPasskey(op, softwareAuthenticator());
    expect(await refusal(renamePasskey(db, { operator: actor(stranger), id: added.id, name: 'mine now', now: t0 }))).toEqual({
      code: 404,
      key: 'opsPasskeyNotFound',
    });
    expect(await refusal(removePasskey(db, { operator: actor(stranger), id: added.id, now: t0 }))).toEqual({
      code: 404,
      key: 'opsPasskeyNotFound',
    });
    expect(await renamePasskey(db, { operator: actor(op), id: added.id, name: 'YubiKey', now: t0 })).toMatchObject({ name: 'YubiKey' });
    await removePasskey(db, { operator: actor(op), id: added.id, now: t0 });
    expect((await secondFactorsOf(db, op.operatorId)).passkeys).toEqual([]);
    const trail = await db.select().from(operatorAudit).where(eq(operatorAudit.operatorId, op.operatorId));
    expect(trail.filter((e) => e.procedure.startsWith('passkey/')).map((e) => [e.procedure, e.before, e.after])).toEqual([
      ['passkey/add', null, expect.objectContaining({ name: 'Work laptop' })],
      ['passkey/rename', expect.objectContaining({ name: 'Work laptop' }), expect.objectContaining({ name: 'YubiKey' })],
      ['passkey/remove', expect.objectContaining({ name: 'YubiKey' }), null],
    ]);
  });

  it('never removes the last second factor: with no TOTP set, the last passkey stays', async () => {
    const op = await signedInOperator(db, { name: 'pk.lastone', role: 'owner', now: t0 });
    const first = await withPasskey(op, softwareAuthenticator(), t0, 'Phone');
    const second = await withPasskey(op, softwareAuthenticator(), t0, 'Laptop');
    // An account whose TOTP was reset (issue 31: "an owner can reset another operator's second factor").
    await db.update(operators).set({ totpSecret: null }).where(eq(operators.id, op.operatorId));
    await removePasskey(db, { operator: actor(op), id: first.id, now: t0 });
    expect(await refusal(removePasskey(db, { operator: actor(op), id: second.id, now: t0 }))).toEqual({
      code: 409,
      key: 'opsPasskeyLastFactor',
    });
    expect((await secondFactorsOf(db, op.operatorId)).passkeys.map((p) => p.name)).toEqual(['Laptop']);
  });
});

describe('signing in with a passkey in place of the code', () => {
  it('signs in with name, password and the passkey, and marks it used', async () => {
    const op = await signedInOperator(db, { name: 'pk.signer', role: 'manager', channels: ['AURORA'], now: t0 });
    const key = softwareAuthenticator();
    const added = await withPasskey(op, key);
    const later = at(60_000);
    const { started, done } = await passkeySignIn(op, key, later);
    expect(started.options.rpId).toBe('ops.localhost');
    expect(started.options.allowCredentials?.map((c) => c.id)).toEqual([key.credentialId]);
    const session = await done;
    expect(session.operator).toEqual({ name: 'pk.signer', role: 'manager' });
    expect(await resolveOperatorSession(db, session.token, later)).toMatchObject({ name: 'pk.signer' });
    expect((await secondFactorsOf(db, op.operatorId)).passkeys).toEqual([
      { id: added.id, name: 'Work laptop', createdAt: t0, lastUsedAt: later },
    ]);
  });

  it('refuses a replayed answer, an answer for another origin, and a counter going backwards, in the words of a wrong code', async () => {
    const op = await signedInOperator(db, { name: 'pk.attacked', role: 'owner', now: t0 });
    const key = softwareAuthenticator();
    await withPasskey(op, key);
    const wrong = { code: 401, key: 'opsSignInRefused' };

    const first = await passkeySignIn(op, key, at(60_000));
    await first.done;
    // Replayed: the same answer to the same pending sign-in.
    const replay = finishPasskeySignIn(db, {
      name: op.name,
      password: FIXTURE_PASSWORD,
      ceremony: first.started.ceremony,
      response: first.response,
      now: at(61_000),
      ip: '127.0.0.1',
      rp,
    });
    expect(await refusal(replay)).toEqual(wrong);

    // Phished: the operator answered on another site that relayed this console's challenge.
    expect(await refusal((await passkeySignIn(op, key, at(62_000), { origin: 'https://ops.evil.example', rpId: rp.rpId })).done)).toEqual(
      wrong,
    );
    expect(await refusal((await passkeySignIn(op, key, at(63_000), { origin: rp.origin, rpId: 'evil.example' })).done)).toEqual(wrong);

    // Cloned: the real key signs in at count 10; a copy of it that reports 9 afterwards is refused.
    key.counter = 10;
    await (
      await passkeySignIn(op, key, at(64_000))
    ).done;
    const clone = key.clone(9);
    expect(await refusal((await passkeySignIn(op, clone, at(64_500))).done)).toEqual(wrong);
    const seen = 11;
    // Expired: answered after the pending sign-in's five minutes.
    const started = await startPasskeySignIn(db, { name: op.name, now: at(65_000), ip: ip(), rp });
    key.counter = seen + 5;
    const late = key.authenticate(started.options, console_);
    expect(
      await refusal(
        finishPasskeySignIn(db, {
          name: op.name,
          password: FIXTURE_PASSWORD,
          ceremony: started.ceremony,
          response: late,
          now: at(65_000 + PASSKEY_LIMITS.ceremonyTtlMs),
          ip: '127.0.0.1',
          rp,
        }),
      ),
    ).toEqual(wrong);
    // Five refused tries (each one counts, like a wrong code): the name waits out its 15 minutes, then the real key,
    // going forward, still works.
    const alert = jest.spyOn(console, 'error').mockImplementation(() => {});
    expect(await refusal((await passkeySignIn(op, key, at(70_000))).done)).toEqual({ code: 429, key: 'opsSignInLimited' });
    alert.mockRestore();
    await expect((await passkeySignIn(op, key, at(16 * 60_000))).done).resolves.toMatchObject({ operator: { name: 'pk.attacked' } });
  });

  it('answers the same options whatever the password (no oracle), and refuses the real passkey with a wrong password', async () => {
    // issue 31, red team: the options used to hold the real credentials only after the right password, so a leaked
    // password could be confirmed without the passkey. Now the first step takes the name alone.
    const op = await signedInOperator(db, { name: 'pk.oracle', role: 'owner', now: t0 });
    const key = softwareAuthenticator();
    const spare = softwareAuthenticator();
    await withPasskey(op, key);
    await withPasskey(op, spare, t0, 'Spare key');
    const when = at(100_000);
    const first = await startPasskeySignIn(db, { name: op.name, now: when, ip: ip(), rp });
    const again = await startPasskeySignIn(db, { name: ` ${op.name.toUpperCase()} `, now: when, ip: ip(), rp });
    const shape = (o: typeof first.options) => o.allowCredentials?.map((c) => ({ ...c }));
    expect(shape(first.options)).toEqual([
      { id: key.credentialId, type: 'public-key' },
      { id: spare.credentialId, type: 'public-key' },
    ]);
    expect(shape(again.options)).toEqual(shape(first.options));
    // An unknown name gets one stand-in, the same each time, of the same shape.
    const unknown = await startPasskeySignIn(db, { name: 'pk.nobody', now: when, ip: ip(), rp });
    const unknownAgain = await startPasskeySignIn(db, { name: 'pk.nobody', now: when, ip: ip(), rp });
    expect(shape(unknown.options)).toEqual([{ id: expect.any(String), type: 'public-key' }]);
    expect(shape(unknownAgain.options)).toEqual(shape(unknown.options));
    expect(unknown.options.allowCredentials![0]!.id).not.toBe(key.credentialId);

    // The operator's real key answering the real challenge still cannot sign in with a wrong password.
    const answer = key.authenticate(first.options, console_);
    expect(
      await refusal(
        finishPasskeySignIn(db, {
          name: op.name,
          password: 'a leaked guess',
          ceremony: first.ceremony,
          response: answer,
          now: when,
          ip: ip(),
          rp,
        }),
      ),
    ).toEqual({ code: 401, key: 'opsSignInRefused' });
    // Nor with the right password for a pending sign-in started for another name.
    const other = await startPasskeySignIn(db, { name: 'pk.nobody', now: when, ip: ip(), rp });
    expect(
      await refusal(
        finishPasskeySignIn(db, {
          name: op.name,
          password: FIXTURE_PASSWORD,
          ceremony: other.ceremony,
          response: key.authenticate(other.options, console_),
          now: when,
          ip: ip(),
          rp,
        }),
      ),
    ).toEqual({ code: 401, key: 'opsSignInRefused' });
  });

  it('counts each passkey sign-in try in the per-name limit, and audits the throttled ones too', async () => {
    const op = await signedInOperator(db, { name: 'pk.guessed', role: 'owner', now: t0 });
    const key = softwareAuthenticator();
    await withPasskey(op, key);
    const when = at(120_000);
    const alert = jest.spyOn(console, 'error').mockImplementation(() => {});
    const outcomes = [];
    for (let i = 0; i < OPERATOR_LIMITS.perAccount[0].max + 2; i++) {
      // Every try from a new address: the per-name limit is what stops a guesser who has the passkey.
      const started = await startPasskeySignIn(db, { name: op.name, now: when, ip: ip(), rp });
      const response = key.authenticate(started.options, console_);
      outcomes.push(
        await refusal(
          finishPasskeySignIn(db, { name: op.name, password: `wrong ${i}`, ceremony: started.ceremony, response, now: when, ip: ip(), rp }),
        ),
      );
    }
    expect(outcomes.map((o) => o.code)).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // Even the right password now waits.
    expect(await refusal((await passkeySignIn(op, key, when)).done)).toEqual({ code: 429, key: 'opsSignInLimited' });
    expect(alert).toHaveBeenCalledWith(expect.stringMatching(/^\[alert\] operator console: 5 failed sign-ins \(name\)/));
    alert.mockRestore();
    const trail = await db
      .select({ operatorName: operatorAudit.operatorName, input: operatorAudit.input, after: operatorAudit.after })
      .from(operatorAudit)
      .where(eq(operatorAudit.procedure, 'session/passkeySignIn'));
    const mine = trail.filter((e) => e.operatorName === 'pk.guessed');
    expect(mine).toHaveLength(8);
    expect(mine.filter((e) => (e.after as { outcome?: string }).outcome === 'throttled')).toHaveLength(3);
    expect(JSON.stringify(mine)).not.toContain('wrong 1');
  });

  it('limits starts per address in their own count, and writes each start to the audit trail', async () => {
    const when = at(140_000);
    const address = '198.51.100.140';
    for (let i = 0; i < PASSKEY_LIMITS.startsPerAddress[0].max; i++) {
      await startPasskeySignIn(db, { name: `pk.start${i}`, now: when, ip: address, rp });
    }
    expect(await refusal(startPasskeySignIn(db, { name: 'pk.start.more', now: when, ip: address, rp }))).toEqual({
      code: 429,
      key: 'opsSignInLimited',
    });
    const trail = await db
      .select({ operatorName: operatorAudit.operatorName, input: operatorAudit.input, ip: operatorAudit.ip })
      .from(operatorAudit)
      .where(eq(operatorAudit.procedure, 'session/passkeyOptions'));
    expect(trail.filter((e) => e.ip === address)).toHaveLength(PASSKEY_LIMITS.startsPerAddress[0].max);
    expect(trail).toContainEqual({ operatorName: 'pk.start0', input: { name: 'pk.start0' }, ip: address });
  });

  it('gives back the count of a sign-in whose passkey answered, so an operator who signs in often is not limited', async () => {
    const op = await signedInOperator(db, { name: 'pk.frequent', role: 'owner', now: t0 });
    const key = softwareAuthenticator();
    await withPasskey(op, key);
    for (let i = 0; i < OPERATOR_LIMITS.perAccount[0].max + 2; i++) {
      await expect((await passkeySignIn(op, key, at(180_000 + i * 1000))).done).resolves.toMatchObject({
        operator: { name: 'pk.frequent' },
      });
    }
  });
});

it('sweeps the challenges once expired, used or not, so the table does not grow (the hourly retention job)', async () => {
  const op = await signedInOperator(db, { name: 'pk.swept', role: 'owner', now: t0 });
  const when = at(3_600_000);
  await startPasskeyRegistration(db, { operator: actor(op), now: when, rp });
  await startPasskeySignIn(db, { name: op.name, now: when, ip: ip(), rp });
  const open = () => db.select({ id: operatorPasskeyCeremonies.id }).from(operatorPasskeyCeremonies);
  await sweepExpiredRecords(db, at(3_600_000 + PASSKEY_LIMITS.ceremonyTtlMs - 1));
  expect((await open()).length).toBeGreaterThanOrEqual(2);
  const swept = await sweepExpiredRecords(db, at(3_600_000 + PASSKEY_LIMITS.ceremonyTtlMs + 1));
  expect(swept.passkeyCeremonies).toBeGreaterThanOrEqual(2);
  expect(await open()).toEqual([]);
});
