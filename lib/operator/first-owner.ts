import 'server-only';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { operatorInvites, operators } from '../db/schema';
import { randomToken, sha256 } from '../security/crypto';
import { countOwners, createInvitedOperator, OPERATOR_LIMITS } from './accounts';
import { recordAudit } from './audit';
import { newTotpSecret } from './totp';

/** Who the command line is in the audit trail. */
const COMMAND_LINE = { operatorId: null, ip: 'command line' } as const;

/**
 * `npm run ops:owner -- <name>` (issue 31): the deployment's first owner, invited, and the token of their one-time
 * enrolment link. There is no default password anywhere: the owner chooses one at the link. Once an owner exists the
 * command refuses (owners invite everyone else in the console), unless `again` says this is another owner on purpose.
 */
export async function makeFirstOwner(
  db: Db,
  input: { name: string; now: Date; again?: boolean },
): Promise<{ token: string; expiresAt: Date }> {
  if (!input.again && (await countOwners(db)) > 0) {
    throw new Error('there is already an owner: owners invite operators in the console (add --again to make another owner from here)');
  }
  return createInvitedOperator(db, { name: input.name, role: 'owner', now: input.now, by: { ...COMMAND_LINE, name: 'ops:owner' } });
}

/** The demo's owner (`npm run demo`, demo mode only). */
export const DEMO_OWNER = 'demo.owner';

/**
 * The demo owner's enrolment link for `npm run demo`: made on the first start, and made afresh on each start until it
 * is used (the one before stops working, so only the last one printed does). Null once the demo owner has enrolled.
 */
export async function demoOwnerEnrolment(db: Db, now: Date): Promise<{ token: string } | null> {
  const [owner] = await db.select().from(operators).where(eq(operators.name, DEMO_OWNER));
  if (!owner) {
    const { token } = await createInvitedOperator(db, {
      name: DEMO_OWNER,
      role: 'owner',
      now,
      by: { ...COMMAND_LINE, name: 'npm run demo' },
    });
    return { token };
  }
  if (owner.status !== 'invited') return null;
  const token = randomToken();
  await db.transaction(async (tx) => {
    await tx
      .update(operatorInvites)
      .set({ usedAt: now })
      .where(and(eq(operatorInvites.operatorId, owner.id), isNull(operatorInvites.usedAt)));
    await tx.insert(operatorInvites).values({
      operatorId: owner.id,
      tokenHash: sha256(token),
      pendingTotpSecret: newTotpSecret(),
      createdAt: now,
      expiresAt: new Date(now.getTime() + OPERATOR_LIMITS.inviteTtlMs),
    });
    await recordAudit(tx, {
      at: now,
      ...COMMAND_LINE,
      operatorName: 'npm run demo',
      procedure: 'operator/reinvite',
      input: { name: DEMO_OWNER },
      after: { status: 'invited', link: 'new' },
    });
  });
  return { token };
}
