import { z } from 'zod';

/**
 * Gifts between buyers (转赠, issue 36; docs/gifting.md) as they travel in the API's JSON. No server-only imports: the
 * browser reads these types too.
 */

/** The collectible a gift is about: its name, cover and edition. */
const giftedSchema = z.object({
  holdingId: z.string(),
  name: z.string(),
  cover: z.string(),
  number: z.number().int(),
  amountNumber: z.number().int(),
});

/** transfer/lookup: the receiver behind an account number, as the sender confirms them (their nickname, masked). */
export const receiverViewSchema = z.object({ accountNumber: z.string(), maskedName: z.string() });
export type ReceiverView = z.infer<typeof receiverViewSchema>;

/** One gift as its sender or its receiver sees it. */
export const transferViewSchema = z.object({
  id: z.string(),
  /** Whether the caller gave it (`sent`) or was given it (`received`). */
  direction: z.enum(['sent', 'received']),
  status: z.enum(['pending', 'accepted', 'refused', 'expired']),
  collectible: giftedSchema,
  /** The other buyer, masked: the receiver for the sender, the sender for the receiver. */
  otherName: z.string(),
  createdAt: z.string(),
  /** A pending gift unanswered by then goes back to its sender. */
  expiresAt: z.string(),
  answeredAt: z.string().nullable(),
  /** Accepted: the chain's record of the transfer (the built-in ledger's `transfer` entry); null otherwise. */
  txHash: z.string().nullable(),
});
export type TransferView = z.infer<typeof transferViewSchema>;

/** Whether a held collectible may be given now, and if not why and until when (the item's Give action). */
export const giftabilitySchema = z.object({
  holdingId: z.string(),
  collectible: giftedSchema,
  canGive: z.boolean(),
  /** Why not: the holding period, chain-up pending, a refund in progress, already offered, a blind box. */
  why: z.enum(['holdingPeriod', 'chainPending', 'refundPending', 'offered', 'blindBox']).nullable(),
  /** In the holding period: when it ends. */
  from: z.string().nullable(),
  /** Each holder so far, oldest first (the edition's provenance), masked, with the day they got it. */
  provenance: z.array(z.object({ name: z.string(), since: z.string() })),
});
export type Giftability = z.infer<typeof giftabilitySchema>;

/** How the holder got the edition (the certificate's "acquired" line): from holdings.source, or a gift accepted. */
export type AcquiredHow = 'bought' | 'box' | 'gift' | 'exchange' | 'campaign' | 'chainUp';

/**
 * A held edition's certificate (issue 36, docs/gifting.md "Certificate"): what its owner's page and its public page
 * show. Every buyer in it is masked; nothing of the holder beyond that.
 */
export type CertificateView = {
  holdingId: string;
  /** The opaque code of the public page (`/cert/<code>`). */
  code: string;
  name: string;
  cover: string;
  pictures: string[];
  number: number;
  amountNumber: number;
  chainName: string;
  onChain: boolean;
  tokenId: string | null;
  /** The chain transaction that minted it (a gift adds a transfer record; the mint's hash stays). */
  txHash: string | null;
  /** How and when the holder got it; `from`: the giver, masked, for a gift. */
  acquired: { how: AcquiredHow; at: string; from: string | null };
  /** The holder now, masked. */
  holder: string;
  provenance: Giftability['provenance'];
};

/** The owner's certificate: the public one, with whether it can be given now (the Give action). */
export type OwnCertificateView = CertificateView & Pick<Giftability, 'canGive' | 'why' | 'from'>;
