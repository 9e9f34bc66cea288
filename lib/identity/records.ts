import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { buyerIdentities } from '../db/schema';

/**
 * A buyer's verified identity as the rest of the store may see it (issue 33): the masked forms, the birth date the age
 * rules read, and when. The sealed fields never leave lib/identity.
 */
export type BuyerIdentity = {
  maskedName: string;
  maskedIdNumber: string;
  birthDate: string;
  verifiedAt: Date;
  provider: string;
  /** The keyed hash (buyer_identities.id_hash): what an identity block matches. */
  idHash: string;
};

export async function identityOf(db: Db, userId: number): Promise<BuyerIdentity | null> {
  const [row] = await db
    .select({
      maskedName: buyerIdentities.maskedName,
      maskedIdNumber: buyerIdentities.maskedIdNumber,
      birthDate: buyerIdentities.birthDate,
      verifiedAt: buyerIdentities.verifiedAt,
      provider: buyerIdentities.provider,
      idHash: buyerIdentities.idHash,
    })
    .from(buyerIdentities)
    .where(eq(buyerIdentities.userId, userId))
    .limit(1);
  return row ?? null;
}
