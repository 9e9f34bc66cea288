import 'server-only';
import { desc, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { chainLedger } from '../db/schema';
import { sha256 } from '../security/crypto';
import type { ChainAdapter, ChainAsset, ChainReceipt, ChainTransfer } from './adapter';

/** The hash before the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** The hash of an entry: covers its height, the previous entry's hash and the payload, so editing any entry breaks every later one. */
export function entryHash(height: number, prevHash: string, payload: Record<string, unknown>): string {
  return sha256(`${height}:${prevHash}:${canonicalJson(payload)}`);
}

/** JSON with object keys sorted at every depth: the same content always hashes the same (jsonb reorders keys). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The built-in ledger (DESIGN §7): append-only, hash-chained, in our database. Appends are serialised by a
 * transaction-scoped advisory lock, so heights have no gaps and each entry names its true predecessor.
 */
/**
 * The token id the ledger gives an edition, as an ERC-721 contract would: a large decimal number, one per collectible
 * and edition number, the same on every run (the first 60 bits of a SHA-256 of the two), not "21-21" (issue 17,
 * item 11). Two editions share an id only on a 60-bit hash collision: among a million editions, about one chance in
 * two million.
 */
export function chainTokenId(commodityId: number, number: number): string {
  return BigInt(`0x${sha256(`token:${commodityId}:${number}`).slice(0, 15)}`).toString();
}

type Entry = { holdingId: number; kind: 'mint' | 'transfer'; tokenId: string; payload: Record<string, unknown> };

/**
 * Appends entries after the last, in their order, under the ledger's transaction-scoped advisory lock: heights without
 * gaps, each entry naming its true predecessor. One insert for all of them. Answers their hashes.
 */
async function append(tx: Db, entries: readonly Entry[], now: Date): Promise<string[]> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('chain_ledger'))`);
  const [last] = await tx
    .select({ height: chainLedger.height, txHash: chainLedger.txHash })
    .from(chainLedger)
    .orderBy(desc(chainLedger.height))
    .limit(1);
  let height = last?.height ?? 0;
  let prevHash = last?.txHash ?? GENESIS_HASH;
  const rows = entries.map((entry) => {
    height += 1;
    const txHash = entryHash(height, prevHash, entry.payload);
    const row = { height, prevHash, txHash, ...entry, createdAt: now };
    prevHash = txHash;
    return row;
  });
  if (rows.length > 0) await tx.insert(chainLedger).values(rows);
  return rows.map((row) => row.txHash);
}

const mintEntry = (asset: ChainAsset): Entry => {
  const tokenId = chainTokenId(asset.commodityId, asset.number);
  return { holdingId: asset.holdingId, kind: 'mint', tokenId, payload: { ...asset, tokenId } };
};

export const ledgerAdapter: ChainAdapter = {
  name: 'ledger',
  async submit(tx: Db, asset: ChainAsset, now: Date): Promise<ChainReceipt> {
    const entry = mintEntry(asset);
    const [txHash] = await append(tx, [entry], now);
    return { txHash: `0x${txHash}`, tokenId: entry.tokenId };
  },
  async submitMany(tx: Db, assets: readonly ChainAsset[], now: Date): Promise<ChainReceipt[]> {
    const entries = assets.map(mintEntry);
    const hashes = await append(tx, entries, now);
    return entries.map((entry, i) => ({ txHash: `0x${hashes[i]}`, tokenId: entry.tokenId }));
  },
  /**
   * A gift between buyers accepted (issue 36): an entry of its own, `{kind: 'transfer', holdingId, tokenId, from, to}`
   * with the two owners' public ids, hash-chained like a mint, so the ledger tells each edition's holders in turn.
   */
  async transfer(tx: Db, event: ChainTransfer, now: Date): Promise<{ txHash: string }> {
    const [txHash] = await append(
      tx,
      [{ holdingId: event.holdingId, kind: 'transfer', tokenId: event.tokenId, payload: { kind: 'transfer', ...event } }],
      now,
    );
    return { txHash: `0x${txHash}` };
  },
};

/** Walks the whole ledger and says where it breaks, or null when every entry's hash and link hold. */
export async function verifyLedger(db: Db): Promise<string | null> {
  const entries = await db.select().from(chainLedger).orderBy(chainLedger.height);
  let prev = GENESIS_HASH;
  for (const [i, e] of entries.entries()) {
    if (e.height !== i + 1) return `height ${e.height}: expected ${i + 1}`;
    if (e.prevHash !== prev) return `height ${e.height}: does not link to the previous entry`;
    if (e.txHash !== entryHash(e.height, e.prevHash, e.payload)) return `height ${e.height}: hash does not match its content`;
    prev = e.txHash;
  }
  return null;
}
