import 'server-only';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { agreementAcceptances } from '../db/schema';

/**
 * Which version of which agreement a buyer accepted on a channel, and when (issue 33; docs/security.md, "Agreement
 * versions"). Logging in is accepting the privacy policy and the sales terms (the login form's checkbox, spec §2), so
 * each login keeps the versions it accepted; a version already kept keeps its first acceptance.
 */
export type Agreement = 'privacy' | 'salesStrategy' | 'identityConsent';

export async function recordAgreementAcceptances(
  db: Db,
  input: { userId: number; channelId: number; versions: Partial<Record<Agreement, string>>; now: Date },
): Promise<void> {
  const rows = (Object.entries(input.versions) as [Agreement, string | undefined][])
    .filter((entry): entry is [Agreement, string] => typeof entry[1] === 'string')
    .map(([agreement, version]) => ({ userId: input.userId, channelId: input.channelId, agreement, version, acceptedAt: input.now }));
  if (rows.length === 0) return;
  await db.insert(agreementAcceptances).values(rows).onConflictDoNothing();
}

export type AgreementAcceptance = { agreement: Agreement; version: string; acceptedAt: Date };

/** Every version the buyer accepted on the channel, oldest first (the console's buyer page). */
export async function agreementAcceptancesOf(db: Db, userId: number, channelId: number): Promise<AgreementAcceptance[]> {
  const rows = await db
    .select({
      agreement: agreementAcceptances.agreement,
      version: agreementAcceptances.version,
      acceptedAt: agreementAcceptances.acceptedAt,
    })
    .from(agreementAcceptances)
    .where(and(eq(agreementAcceptances.userId, userId), eq(agreementAcceptances.channelId, channelId)))
    .orderBy(asc(agreementAcceptances.acceptedAt), asc(agreementAcceptances.id));
  return rows.map((r) => ({ ...r, agreement: r.agreement as Agreement }));
}
