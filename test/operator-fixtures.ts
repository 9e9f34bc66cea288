import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Db } from '@/lib/db/client';
import { operators } from '@/lib/db/schema';
import { completeEnrolment, createInvitedOperator, disableOperator, readEnrolment, signIn } from '@/lib/operator/accounts';
import { createApiKey } from '@/lib/operator/api-keys';
import type { OperatorRole } from '@/lib/procedure/roles';

/**
 * Operators for API tests (issue 31): enrolled and signed in through the service functions (the enrolment and sign-in
 * calls have their own tests), each with the `__Host-ops` cookie header its browser would send.
 */
export const OPS_HOST = 'ops.localhost:3000';
export const FIXTURE_PASSWORD = 'fixture password, long enough';

/** The code an authenticator app shows for `secret` at `when`. */
export function totpCode(secret: string, when: Date): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: when.getTime() });
}

export type TestOperator = {
  name: string;
  role: OperatorRole;
  operatorId: number;
  secret: string;
  cookie: string;
  /** The ten recovery codes enrolment answered (none used). */
  recoveryCodes: string[];
};

let nextIp = 0;

/** An operator enrolled at `now` and signed in 30 s later (the next TOTP step), granted `channels`. */
export async function signedInOperator(
  db: Db,
  input: { name: string; role: OperatorRole; channels?: string[]; now: Date },
): Promise<TestOperator> {
  const { token, operatorId } = await createInvitedOperator(db, {
    name: input.name,
    role: input.role,
    channels: input.channels,
    now: input.now,
  });
  const { secret } = (await readEnrolment(db, token, input.now))!;
  const { recoveryCodes } = await completeEnrolment(db, {
    token,
    password: FIXTURE_PASSWORD,
    code: totpCode(secret, input.now),
    now: input.now,
    ip: '127.0.0.1',
  });
  const later = new Date(input.now.getTime() + 30_000);
  const session = await signIn(db, {
    name: input.name,
    password: FIXTURE_PASSWORD,
    code: totpCode(secret, later),
    now: later,
    ip: `192.0.2.${++nextIp}`,
  });
  return { name: input.name, role: input.role, operatorId, secret, cookie: `__Host-ops=${session.token}`, recoveryCodes };
}

/** A signed-in operator whom an owner then disabled: the cookie is still in their browser. */
export async function disabledOperator(db: Db, input: { name: string; now: Date }): Promise<TestOperator> {
  const op = await signedInOperator(db, { name: input.name, role: 'manager', channels: ['AURORA'], now: input.now });
  await disableOperator(db, { operatorId: op.operatorId, by: { operatorId: null, name: 'fixture', ip: '127.0.0.1' }, now: input.now });
  const [row] = await db.select().from(operators).where(eq(operators.id, op.operatorId));
  if (row?.status !== 'disabled') throw new Error('fixture operator not disabled');
  return op;
}

/** A new API key of `op` (issue 31) with the role and channels asked for (by default the operator's own). */
export async function apiKeyOf(
  db: Db,
  op: TestOperator,
  input: { now: Date; role?: OperatorRole; channels?: string[]; label?: string },
): Promise<{ key: string; id: number }> {
  const made = await createApiKey(db, {
    operatorId: op.operatorId,
    label: input.label ?? `${op.name} key`,
    role: input.role ?? op.role,
    channels: input.channels ?? [],
    now: input.now,
    by: { operatorId: op.operatorId, name: op.name, ip: '127.0.0.1' },
  });
  return { key: made.key, id: made.apiKey.id };
}
