import 'server-only';
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Db } from '../db/client';
import { redeemCodeBatches, redeemCodes, users } from '../db/schema';
import { maskPhone } from '../auth/mask';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { offerOfChannel, type CampaignAudit } from '../campaign/manage';
import { generateCode, hashCode, normalizeCode } from './service';

/**
 * Redeem-code batches (issue 32, "redeem-code batches"; docs/security.md, "Redeem-code batches"). An offer that asks
 * for a code gets its codes in batches: generated here (the project's 128-bit codes, lib/redeem-code/format.ts) or
 * imported (codes printed elsewhere). Codes are stored only as SHA-256, so a generated batch's plain codes exist once,
 * when it is made: they are kept sealed (AES-256-GCM under a key derived from AUTH_SECRET, bound to the batch's id)
 * until the batch's one export, or BATCH_LIMITS.sealHours, whichever comes first, and then dropped for good. An expiry
 * and a revocation (of the batch or of one code) are honoured at claim (./service.ts `useRedeemCode`).
 */
export const BATCH_LIMITS = {
  /** Codes per generated or imported batch: 1,000 generate in one multi-row insert well under a second. */
  maxSize: 10_000,
  /** How long a generated batch's plain codes wait for their one export (a day: time to hand them to the printer). */
  sealHours: 24,
} as const;

/** The key that seals a batch's plain codes: derived from the deployment's secret, never the secret itself. */
export function batchSealKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'redeem-code-batches', 'seal plain codes until their one export', 32));
}

function seal(key: Buffer, batchId: number, codes: string[]): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`batch:${batchId}`));
  const body = Buffer.concat([cipher.update(codes.join('\n'), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64')).join('.');
}

function unseal(key: Buffer, batchId: number, sealed: string): string[] {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64')) as [Buffer, Buffer, Buffer];
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(`batch:${batchId}`));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()])
    .toString('utf8')
    .split('\n');
}

/** Who made a batch: an operator, or the demo seed (no operator). */
export type BatchMaker = { operatorId: number | null; name: string };

/** A batch as the console shows it and the trail keeps it: never its codes. */
export type BatchRecord = {
  id: number;
  offerId: number;
  size: number;
  source: 'generated' | 'imported';
  expiresAt: string | null;
  createdAt: string;
  createdBy: string;
  /** Whether its plain codes still wait for their one export. */
  exportable: boolean;
  exportedAt: string | null;
  revokedAt: string | null;
  used: number;
  revokedCodes: number;
};

type BatchRow = typeof redeemCodeBatches.$inferSelect;

function batchRecord(b: BatchRow, counts: { used: number; revokedCodes: number }, now: Date): BatchRecord {
  return {
    id: b.id,
    offerId: b.offerId,
    size: b.size,
    source: b.source,
    expiresAt: b.expiresAt?.toISOString() ?? null,
    createdAt: b.createdAt.toISOString(),
    createdBy: b.createdByName,
    exportable: b.sealedCodes !== null && !sealExpired(b, now) && b.revokedAt === null,
    exportedAt: b.exportedAt?.toISOString() ?? null,
    revokedAt: b.revokedAt?.toISOString() ?? null,
    used: counts.used,
    revokedCodes: counts.revokedCodes,
  };
}

const sealExpired = (b: BatchRow, now: Date) => now.getTime() - b.createdAt.getTime() > BATCH_LIMITS.sealHours * 3_600_000;

async function countsOf(db: Db, batchIds: number[]): Promise<Map<number, { used: number; revokedCodes: number }>> {
  if (!batchIds.length) return new Map();
  const rows = await db
    .select({
      batchId: redeemCodes.batchId,
      used: sql<number>`count(${redeemCodes.usedBy})::int`,
      revokedCodes: sql<number>`count(${redeemCodes.revokedAt})::int`,
    })
    .from(redeemCodes)
    .where(inArray(redeemCodes.batchId, batchIds))
    .groupBy(redeemCodes.batchId);
  return new Map(rows.map((r) => [r.batchId!, { used: Number(r.used), revokedCodes: Number(r.revokedCodes) }]));
}

/** An offer's batches, newest first. */
export async function listBatches(db: Db, channelId: number, offerId: number, now: Date): Promise<BatchRecord[]> {
  await offerOfChannel(db, channelId, offerId);
  const rows = await db
    .select()
    .from(redeemCodeBatches)
    .where(and(eq(redeemCodeBatches.offerId, offerId), eq(redeemCodeBatches.channelId, channelId)))
    .orderBy(desc(redeemCodeBatches.id));
  const counts = await countsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => batchRecord(r, counts.get(r.id) ?? { used: 0, revokedCodes: 0 }, now));
}

async function batchOfChannel(db: Db, channelId: number, batchId: number, lock = false): Promise<BatchRow> {
  const query = db
    .select()
    .from(redeemCodeBatches)
    .where(and(eq(redeemCodeBatches.id, batchId), eq(redeemCodeBatches.channelId, channelId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError(404, msg('opsBatchNotFound'));
  return row;
}

async function recordOfBatch(db: Db, row: BatchRow, now: Date): Promise<BatchRecord> {
  return batchRecord(row, (await countsOf(db, [row.id])).get(row.id) ?? { used: 0, revokedCodes: 0 }, now);
}

type NewBatch = { channelId: number; offerId: number; expiresAt: Date | null; by: BatchMaker; now: Date };

async function codeOffer(db: Db, channelId: number, offerId: number) {
  const offer = await offerOfChannel(db, channelId, offerId);
  if (!offer.requiresCode) throw new AppError(400, msg('opsBatchOfferNoCode'));
  return offer;
}

/**
 * Generates `size` new codes for an offer that asks for one, in one multi-row insert of their hashes, and keeps their
 * plain text sealed for the one export. The audit entry names the batch and its size, never the codes.
 */
export async function generateBatch(
  db: Db,
  input: NewBatch & { size: number; sealKey: Buffer },
  audit?: CampaignAudit,
): Promise<BatchRecord> {
  await codeOffer(db, input.channelId, input.offerId);
  const codes = Array.from({ length: input.size }, () => generateCode());
  return db.transaction(async (tx) => {
    const [batch] = await tx
      .insert(redeemCodeBatches)
      .values({
        channelId: input.channelId,
        offerId: input.offerId,
        size: input.size,
        source: 'generated',
        expiresAt: input.expiresAt,
        createdAt: input.now,
        createdBy: input.by.operatorId,
        createdByName: input.by.name,
      })
      .returning({ id: redeemCodeBatches.id });
    await tx.insert(redeemCodes).values(codes.map((c) => ({ offerId: input.offerId, codeHash: hashCode(c), batchId: batch!.id })));
    const [row] = await tx
      .update(redeemCodeBatches)
      .set({ sealedCodes: seal(input.sealKey, batch!.id, codes) })
      .where(eq(redeemCodeBatches.id, batch!.id))
      .returning();
    const after = batchRecord(row!, { used: 0, revokedCodes: 0 }, input.now);
    await audit?.(tx, { channelId: input.channelId, before: null, after });
    return after;
  });
}

/** A line of an import as the code it means, or null when it is not a code of the project's format. */
function importedCode(line: string): string | null {
  const code = normalizeCode(line);
  return /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(code) ? code : null;
}

/**
 * Imports given codes (printed elsewhere, or the demo's fixed ones) as a batch of an offer. Refused, naming `codes` and
 * the line: a line that is not a code, a code given twice or already held by any offer (codes are unique everywhere).
 */
export async function importBatch(db: Db, input: NewBatch & { codes: string[] }, audit?: CampaignAudit): Promise<BatchRecord> {
  await codeOffer(db, input.channelId, input.offerId);
  const seen = new Map<string, number>();
  input.codes.forEach((line, i) => {
    const code = importedCode(line);
    if (!code) throw new AppError(400, msg('opsBatchImportInvalid', { line: i + 1 }));
    if (seen.has(code)) throw new AppError(400, msg('opsBatchImportDuplicate', { line: i + 1 }));
    seen.set(code, i + 1);
  });
  const hashes = [...seen.keys()].map((c) => hashCode(c));
  const [taken] = await db.select({ hash: redeemCodes.codeHash }).from(redeemCodes).where(inArray(redeemCodes.codeHash, hashes)).limit(1);
  if (taken) {
    const line = [...seen].find(([code]) => hashCode(code) === taken.hash)![1];
    throw new AppError(400, msg('opsBatchImportDuplicate', { line }));
  }
  return db.transaction(async (tx) => {
    const [batch] = await tx
      .insert(redeemCodeBatches)
      .values({
        channelId: input.channelId,
        offerId: input.offerId,
        size: hashes.length,
        source: 'imported',
        expiresAt: input.expiresAt,
        createdAt: input.now,
        createdBy: input.by.operatorId,
        createdByName: input.by.name,
      })
      .returning();
    await tx.insert(redeemCodes).values(hashes.map((codeHash) => ({ offerId: input.offerId, codeHash, batchId: batch!.id })));
    const after = batchRecord(batch!, { used: 0, revokedCodes: 0 }, input.now);
    await audit?.(tx, { channelId: input.channelId, before: null, after });
    return after;
  });
}

/**
 * The one export of a generated batch: its plain codes as CSV, and the sealed copy dropped in the same transaction, so
 * a second export (or two at once) is refused naming `batchId`. Refused too: an imported batch, a revoked one, one whose
 * codes waited past BATCH_LIMITS.sealHours (dropped then).
 */
export async function exportBatch(
  db: Db,
  input: { channelId: number; batchId: number; now: Date; sealKey: Buffer },
  audit?: CampaignAudit,
): Promise<{ csv: string; filename: string; batch: BatchRecord }> {
  const refusal = await db.transaction(async (tx) => {
    const row = await batchOfChannel(tx, input.channelId, input.batchId, true);
    if (row.source === 'imported') return new AppError(409, msg('opsBatchImported'));
    if (row.exportedAt) return new AppError(409, msg('opsBatchExported', { at: row.exportedAt }));
    if (row.revokedAt) return new AppError(409, msg('opsBatchRevoked', { at: row.revokedAt }));
    if (row.sealedCodes === null || sealExpired(row, input.now)) {
      // Past their time: the plain codes go now, whoever asks.
      if (row.sealedCodes !== null) await tx.update(redeemCodeBatches).set({ sealedCodes: null }).where(eq(redeemCodeBatches.id, row.id));
      return new AppError(409, msg('opsBatchSealExpired', { hours: BATCH_LIMITS.sealHours }));
    }
    return null;
  });
  if (refusal) throw refusal;
  return db.transaction(async (tx) => {
    const row = await batchOfChannel(tx, input.channelId, input.batchId, true);
    if (row.exportedAt || row.sealedCodes === null) throw new AppError(409, msg('opsBatchExported', { at: row.exportedAt ?? input.now }));
    const before = await recordOfBatch(tx, row, input.now);
    const codes = unseal(input.sealKey, row.id, row.sealedCodes);
    const [done] = await tx
      .update(redeemCodeBatches)
      .set({ sealedCodes: null, exportedAt: input.now })
      .where(eq(redeemCodeBatches.id, row.id))
      .returning();
    const after = await recordOfBatch(tx, done!, input.now);
    await audit?.(tx, { channelId: input.channelId, before, after });
    const expires = row.expiresAt ? row.expiresAt.toISOString() : '';
    const csv = ['code,batch,expires_at', ...codes.map((c) => `${c},${row.id},${expires}`)].join('\r\n') + '\r\n';
    return { csv, filename: `redeem-codes-batch-${row.id}.csv`, batch: after };
  });
}

/** Revokes a whole batch: every unused code of it is refused at claim from now on (codes used stay used). */
export async function revokeBatch(
  db: Db,
  input: { channelId: number; batchId: number; now: Date },
  audit?: CampaignAudit,
): Promise<BatchRecord> {
  return db.transaction(async (tx) => {
    const row = await batchOfChannel(tx, input.channelId, input.batchId, true);
    if (row.revokedAt) throw new AppError(409, msg('opsBatchRevoked', { at: row.revokedAt }));
    const before = await recordOfBatch(tx, row, input.now);
    // A revoked batch's plain codes are of no use to anyone: dropped with the revocation.
    const [done] = await tx
      .update(redeemCodeBatches)
      .set({ revokedAt: input.now, sealedCodes: null })
      .where(eq(redeemCodeBatches.id, row.id))
      .returning();
    const after = await recordOfBatch(tx, done!, input.now);
    await audit?.(tx, { channelId: input.channelId, before, after });
    return after;
  });
}

/** One code as the console shows it: never its text (only its hash is kept), its row and what became of it. */
export type CodeRecord = { id: number; batchId: number | null; usedAt: string | null; usedBy: string | null; revokedAt: string | null };

/**
 * Revokes one unused code of an offer, found by its plain text (as read off a card) or its row; refused naming `code`
 * when the offer has no such unused code.
 */
export async function revokeCode(
  db: Db,
  input: { channelId: number; offerId: number; code?: string; codeId?: number; now: Date },
  audit?: CampaignAudit,
): Promise<CodeRecord> {
  await offerOfChannel(db, input.channelId, input.offerId);
  return db.transaction(async (tx) => {
    const which = input.code !== undefined ? eq(redeemCodes.codeHash, hashCode(input.code)) : eq(redeemCodes.id, input.codeId ?? -1);
    const [row] = await tx
      .select()
      .from(redeemCodes)
      .where(and(which, eq(redeemCodes.offerId, input.offerId)))
      .for('update');
    if (!row || row.usedBy !== null || row.revokedAt !== null) throw new AppError(404, msg('opsBatchCodeNotFound'));
    const [done] = await tx.update(redeemCodes).set({ revokedAt: input.now }).where(eq(redeemCodes.id, row.id)).returning();
    const view = (r: typeof row): CodeRecord => ({
      id: r.id,
      batchId: r.batchId,
      usedAt: null,
      usedBy: null,
      revokedAt: r.revokedAt?.toISOString() ?? null,
    });
    const after = view(done!);
    await audit?.(tx, { channelId: input.channelId, before: view(row), after });
    return after;
  });
}

/**
 * A batch's used codes: when, and by whom, masked (138****1234: issue 32 asks the buyer masked; support sees the
 * same), newest first, at most `limit`; with the batch's counts.
 */
export async function batchUsage(
  db: Db,
  input: { channelId: number; batchId: number; now: Date; limit?: number },
): Promise<{ batch: BatchRecord; used: CodeRecord[] }> {
  const row = await batchOfChannel(db, input.channelId, input.batchId);
  const used = await db
    .select({
      id: redeemCodes.id,
      batchId: redeemCodes.batchId,
      usedAt: redeemCodes.usedAt,
      phone: users.phone,
      revokedAt: redeemCodes.revokedAt,
    })
    .from(redeemCodes)
    .innerJoin(users, eq(users.id, redeemCodes.usedBy))
    .where(and(eq(redeemCodes.batchId, row.id), isNotNull(redeemCodes.usedBy)))
    .orderBy(desc(redeemCodes.usedAt), asc(redeemCodes.id))
    .limit(input.limit ?? 500);
  return {
    batch: await recordOfBatch(db, row, input.now),
    used: used.map((u) => ({
      id: u.id,
      batchId: u.batchId,
      usedAt: u.usedAt?.toISOString() ?? null,
      usedBy: maskPhone(u.phone),
      revokedAt: u.revokedAt?.toISOString() ?? null,
    })),
  };
}

/** How many of an offer's codes are still usable (unused, not revoked, batch neither revoked nor expired). */
export async function usableCodes(db: Db, offerId: number, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(redeemCodes)
    .leftJoin(redeemCodeBatches, eq(redeemCodeBatches.id, redeemCodes.batchId))
    .where(
      and(
        eq(redeemCodes.offerId, offerId),
        isNull(redeemCodes.usedBy),
        isNull(redeemCodes.revokedAt),
        isNull(redeemCodeBatches.revokedAt),
        sql`(${redeemCodeBatches.expiresAt} is null or ${redeemCodeBatches.expiresAt} > ${now.toISOString()}::timestamptz)`,
      ),
    );
  return Number(row!.n);
}
