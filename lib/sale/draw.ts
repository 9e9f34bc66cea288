import * as crypto from 'node:crypto';
import { z } from 'zod';
import { isValidChannelKey } from '../channel/key';

/**
 * The lottery's draw (issue 35, "Lottery (抽签)"), pure so the server and the offline `npm run draw:verify` run the same
 * code: no database, no clock, nothing but node:crypto and zod. docs/drops.md explains it to buyers and operators.
 *
 * Issue 35: "At registration open the store publishes a commitment: SHA-256 of a secret seed, and names a public value
 * that no one can know when registration closes [...] At the draw the operator enters that value, and the store
 * publishes the seed, the value and the list of registrants [...] with the list's hash. The ranking key of each
 * registrant is HMAC-SHA256(SHA-256(seed ‖ value), account number); the lowest rank first."
 */

/** The version of the published form below; a change to any formula or field is a new version. */
export const DRAW_VERSION = 1;

/** 32 bytes written as 64 lowercase hex digits: the seed, the commitment, every hash of the published form. */
const HEX_32 = /^[0-9a-f]{64}$/;

/**
 * A buyer's account number on a channel: 10 digits, no leading zero (issue 32; the rule of lib/auth/account-numbers.ts,
 * which is server-only and so cannot be imported by the offline command).
 */
const ACCOUNT_NUMBER = /^[1-9]\d{9}$/;

/** A sale's id as the API writes ids: a string of digits. */
const SALE_ID = /^[1-9]\d{0,18}$/;

/**
 * The longest public value the operator may enter, in characters after normalising: ample for a lottery's numbers or an
 * index's price with their names, short enough to show whole on the verify page.
 */
export const PUBLIC_VALUE_MAX = 200;

/** The longest description of where the public value comes from, in characters after normalising. */
export const PUBLIC_VALUE_SOURCE_MAX = 500;

/** Bad input to the draw, naming the field it is about (for the server to answer a 400 naming the same field). */
export class DrawInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'DrawInputError';
  }
}

/** A published draw (version 1): what the store publishes at the draw and what `npm run draw:verify` checks. */
export type PublishedDraw = {
  version: typeof DRAW_VERSION;
  saleId: string;
  channelKey: string;
  copies: number;
  /** SHA-256 of the seed's 32 bytes, hex: published when registration opened. */
  commitment: string;
  /** The secret seed, revealed at the draw: 64 lowercase hex digits. */
  seed: string;
  /** The value entered at the draw (NFC, trimmed). */
  publicValue: string;
  /** Where that value comes from, in words, as the sale's settings said when registration opened. */
  publicValueSource: string;
  /** Every registrant's account number, once, sorted by SHA-256(account number) hex. */
  registrants: string[];
  /** SHA-256 of the registrants joined with "\n" (no trailing newline), hex. */
  listHash: string;
  /** The first `copies` account numbers in rank order. */
  winners: string[];
  /** The rest, in rank order. */
  waitlist: string[];
};

/**
 * SHA-256, hex. Node's one-shot `crypto.hash` (20.12 and later) makes no hash object per call, which halves the time of
 * hashing 100,000 account numbers; the offline command may run on an older Node (package.json: >= 20.9).
 */
const sha256Hex: (data: string | Buffer) => string =
  typeof crypto.hash === 'function'
    ? (data) => crypto.hash('sha256', data, 'hex')
    : (data) => crypto.createHash('sha256').update(data).digest('hex');

const characters = (text: string): number => [...text].length;

function seedBytes(seed: string, field = 'seed'): Buffer {
  if (typeof seed !== 'string' || !HEX_32.test(seed)) throw new DrawInputError(field, 'must be 64 lowercase hex digits (32 bytes)');
  return Buffer.from(seed, 'hex');
}

/** A fresh secret seed: 32 bytes from the CSPRNG, as 64 lowercase hex digits. Kept secret until the draw. */
export function makeSeed(): string {
  return crypto.randomBytes(32).toString('hex');
}

/** The commitment published when registration opens: SHA-256 of the seed's 32 bytes (not of its hex text), hex. */
export function commitmentOf(seed: string): string {
  return sha256Hex(seedBytes(seed));
}

/**
 * The public value as it enters the draw: Unicode NFC (so the same text typed on two keyboards is the same bytes),
 * spaces around it trimmed. Refuses an empty value or one over 200 characters.
 */
export function normalisePublicValue(value: string, field = 'publicValue'): string {
  if (typeof value !== 'string') throw new DrawInputError(field, 'is required and must be a string');
  const normal = value.normalize('NFC').trim();
  if (normal === '') throw new DrawInputError(field, 'must not be empty: enter the public value as its source published it');
  if (characters(normal) > PUBLIC_VALUE_MAX) throw new DrawInputError(field, `must be ${PUBLIC_VALUE_MAX} characters or less`);
  return normal;
}

function normaliseSource(source: string, field = 'publicValueSource'): string {
  if (typeof source !== 'string') throw new DrawInputError(field, 'is required and must be a string');
  const normal = source.normalize('NFC').trim();
  if (normal === '') throw new DrawInputError(field, 'must say in words where the public value comes from');
  if (characters(normal) > PUBLIC_VALUE_SOURCE_MAX)
    throw new DrawInputError(field, `must be ${PUBLIC_VALUE_SOURCE_MAX} characters or less`);
  return normal;
}

/** The draw key: SHA-256(seed bytes ‖ UTF-8 bytes of the normalised public value), hex. */
export function drawKey(seed: string, value: string): string {
  const bytes = seedBytes(seed);
  return crypto.createHash('sha256').update(bytes).update(normalisePublicValue(value), 'utf8').digest('hex');
}

function drawKeyObject(key: string) {
  if (typeof key !== 'string' || !HEX_32.test(key)) throw new DrawInputError('drawKey', 'must be 64 lowercase hex digits (32 bytes)');
  return crypto.createSecretKey(Buffer.from(key, 'hex'));
}

/**
 * A registrant's rank key: HMAC-SHA256 keyed with the draw key's 32 bytes over the UTF-8 account number, hex. The
 * lowest ranks first.
 */
export function rankKey(key: string, accountNumber: string): string {
  checkAccountNumber(accountNumber, 'accountNumber');
  return crypto.createHmac('sha256', drawKeyObject(key)).update(accountNumber, 'utf8').digest('hex');
}

function checkAccountNumber(accountNumber: unknown, field: string): asserts accountNumber is string {
  if (typeof accountNumber !== 'string' || !ACCOUNT_NUMBER.test(accountNumber)) {
    throw new DrawInputError(field, `${JSON.stringify(accountNumber)} is not an account number (10 digits, the first not 0)`);
  }
}

/**
 * The registrant list as published: each account number once, sorted by SHA-256(account number) hex, so the order
 * tells nothing of who registered when. Refuses a malformed or a repeated account number, naming it.
 */
export function publishedList(accountNumbers: readonly string[]): string[] {
  // One string per registrant, hash then number: a plain sort orders by hash (64 characters each), with no comparator.
  const keyed = accountNumbers.map((accountNumber, i) => {
    checkAccountNumber(accountNumber, `accountNumbers[${i}]`);
    return sha256Hex(accountNumber) + accountNumber;
  });
  keyed.sort();
  const list = keyed.map((entry) => entry.slice(64));
  for (let i = 1; i < list.length; i++) {
    // Equal numbers have equal hashes, so a repeat lies next to its twin.
    if (list[i] === list[i - 1]) throw new DrawInputError('accountNumbers', `${list[i]} is listed twice: each registrant is drawn once`);
  }
  return list;
}

/** The list hash: SHA-256 of the published list joined with "\n", no trailing newline, hex. */
export function listHash(list: readonly string[]): string {
  return sha256Hex(list.join('\n'));
}

/** Every account number in rank order (ties, impossible in practice, by account number). */
function rankOrder(key: string, accountNumbers: readonly string[]): string[] {
  const secret = drawKeyObject(key);
  // Rank key then account number in one string: a plain sort gives rank order, ties by number (all 10 digits long).
  const keyed = accountNumbers.map((n) => crypto.createHmac('sha256', secret).update(n, 'utf8').digest('hex') + n);
  keyed.sort();
  return keyed.map((entry) => entry.slice(64));
}

export type DrawInput = {
  saleId: string;
  channelKey: string;
  /** N: the sale's copies, as frozen when registration opened. */
  copies: number;
  seed: string;
  /** The value the operator enters at the draw (normalised here). */
  publicValue: string;
  publicValueSource: string;
  /** The registrants' account numbers on the channel, in any order. */
  accountNumbers: readonly string[];
};

/** The draw: ranks every registrant, the first `copies` win, the rest are the ranked waitlist. */
export function runDraw(input: DrawInput): PublishedDraw {
  if (typeof input.saleId !== 'string' || !SALE_ID.test(input.saleId)) throw new DrawInputError('saleId', 'must be a sale id (digits)');
  if (typeof input.channelKey !== 'string' || !isValidChannelKey(input.channelKey)) {
    throw new DrawInputError('channelKey', 'must be a channel key (capital letters and digits)');
  }
  if (!Number.isSafeInteger(input.copies) || input.copies < 1) throw new DrawInputError('copies', 'must be a whole number of at least 1');
  const commitment = commitmentOf(input.seed);
  const publicValue = normalisePublicValue(input.publicValue);
  const publicValueSource = normaliseSource(input.publicValueSource);
  const registrants = publishedList(input.accountNumbers);
  const ranked = rankOrder(drawKey(input.seed, publicValue), registrants);
  return {
    version: DRAW_VERSION,
    saleId: input.saleId,
    channelKey: input.channelKey,
    copies: input.copies,
    commitment,
    seed: input.seed,
    publicValue,
    publicValueSource,
    registrants,
    listHash: listHash(registrants),
    winners: ranked.slice(0, input.copies),
    waitlist: ranked.slice(input.copies),
  };
}

/** The published file's text: its fields in a fixed order, two-space indents, one newline at the end. */
export function canonicalJson(draw: PublishedDraw): string {
  const ordered: PublishedDraw = {
    version: draw.version,
    saleId: draw.saleId,
    channelKey: draw.channelKey,
    copies: draw.copies,
    commitment: draw.commitment,
    seed: draw.seed,
    publicValue: draw.publicValue,
    publicValueSource: draw.publicValueSource,
    registrants: draw.registrants,
    listHash: draw.listHash,
    winners: draw.winners,
    waitlist: draw.waitlist,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

const hex32 = z.string({ error: 'must be a string' }).regex(HEX_32, 'must be 64 lowercase hex digits');
const accountList = z.array(
  z.string({ error: 'must be a string' }).regex(ACCOUNT_NUMBER, 'must be an account number (10 digits, the first not 0)'),
  {
    error: 'must be a list of account numbers',
  },
);
const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .refine((s) => s.trim() !== '', 'must not be empty')
    .refine((s) => characters(s) <= max, `must be ${max} characters or less`);

/** The shape of a published draw, version 1; a field more or less is a problem too. */
const publishedDrawSchema = z.strictObject(
  {
    version: z.literal(DRAW_VERSION, { error: `must be ${DRAW_VERSION} (this command checks version ${DRAW_VERSION} draws)` }),
    saleId: z.string({ error: 'must be a string' }).regex(SALE_ID, 'must be a sale id (digits)'),
    channelKey: z.string({ error: 'must be a string' }).refine(isValidChannelKey, 'must be a channel key (capital letters and digits)'),
    copies: z.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(Number.MAX_SAFE_INTEGER),
    commitment: hex32,
    seed: hex32,
    publicValue: text(PUBLIC_VALUE_MAX),
    publicValueSource: text(PUBLIC_VALUE_SOURCE_MAX),
    registrants: accountList,
    listHash: hex32,
    winners: accountList,
    waitlist: accountList,
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `has a field not in a version ${DRAW_VERSION} draw: ${issue.keys.join(', ')}` : undefined,
  },
);

export type DrawCheck = { ok: true } | { ok: false; problems: string[] };

/** How many differing places a problem names before it counts the rest. */
const SHOWN = 5;
/** How many problems of shape are named (a file of 100,000 bad numbers would otherwise print 100,000 lines). */
const SHOWN_SHAPE = 20;

function compareRanked(name: 'winners' | 'waitlist', published: readonly string[], recomputed: readonly string[]): string[] {
  const problems: string[] = [];
  if (published.length !== recomputed.length) {
    problems.push(`${name}: the file lists ${published.length}, the draw gives ${recomputed.length}`);
  }
  const differing: string[] = [];
  let more = 0;
  for (let i = 0; i < Math.max(published.length, recomputed.length); i++) {
    if (published[i] === recomputed[i]) continue;
    if (differing.length === SHOWN) {
      more++;
      continue;
    }
    differing.push(`${name}[${i}] is ${published[i] ?? 'missing'} in the file, ${recomputed[i] ?? 'nobody'} by the draw`);
  }
  if (more > 0) differing.push(`${name}: ${more} more places differ`);
  return [...problems, ...differing];
}

/**
 * Checks a published draw from its own data (issue 35: "a command anyone can run offline [...] that recomputes the
 * winners from the published data"): its shape, the commitment against the seed, the registrant list's order and
 * hash, then the winners and the waitlist recomputed. Each problem says what differs.
 */
export function verifyDraw(json: unknown): DrawCheck {
  const parsed = publishedDrawSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, SHOWN_SHAPE)
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'the file'}: ${issue.message}`);
    const more = parsed.error.issues.length - SHOWN_SHAPE;
    if (more > 0) problems.push(`the file: ${more} more problems of shape`);
    return { ok: false, problems };
  }
  const draw = parsed.data;
  const problems: string[] = [];

  const commitment = sha256Hex(Buffer.from(draw.seed, 'hex'));
  if (commitment !== draw.commitment) {
    problems.push(
      `commitment: the file says ${draw.commitment}, but SHA-256 of the seed is ${commitment}: this seed is not the one committed to`,
    );
  }

  const publicValue = draw.publicValue.normalize('NFC').trim();
  if (publicValue !== draw.publicValue) problems.push('publicValue: is not in its normal form (Unicode NFC, no spaces around it)');

  const hashes = draw.registrants.map(sha256Hex);
  const repeated = new Set<string>();
  const seen = new Set<string>();
  for (const n of draw.registrants) {
    if (seen.has(n)) repeated.add(n);
    seen.add(n);
  }
  if (repeated.size > 0) problems.push(`registrants: listed more than once: ${[...repeated].slice(0, SHOWN).join(', ')}`);
  const unsorted = hashes.findIndex((h, i) => i > 0 && h < hashes[i - 1]!);
  if (unsorted !== -1) {
    problems.push(
      `registrants: not sorted by SHA-256 of the account number: ${draw.registrants[unsorted]} (at ${unsorted}) comes before ${draw.registrants[unsorted - 1]} (at ${unsorted - 1})`,
    );
  }
  const hash = listHash(draw.registrants);
  if (hash !== draw.listHash) problems.push(`listHash: the file says ${draw.listHash}, but the registrants as listed hash to ${hash}`);

  const ranked = rankOrder(drawKey(draw.seed, publicValue), [...seen]);
  problems.push(
    ...compareRanked('winners', draw.winners, ranked.slice(0, draw.copies)),
    ...compareRanked('waitlist', draw.waitlist, ranked.slice(draw.copies)),
  );
  return problems.length === 0 ? { ok: true } : { ok: false, problems };
}
