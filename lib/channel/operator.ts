import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { tags, writeInvalidating } from '../cache/store';
import type { Db } from '../db/client';
import { channels, type ChannelRow } from '../db/schema';
import { isUniqueViolation } from '../db/errors';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { channelKeyFromHost } from './key';
import { isAppLinkBase } from './app-link';
import { PAYMENT_PROVIDER_NAMES } from '../env';
import { BLOCKCHAIN_FILING, ICP_FILING, PUBLIC_SECURITY_FILING } from './compliance';
import {
  cssColor,
  imageUrl,
  parseSkin,
  SKIN_COLOR_FIELDS,
  SKIN_EXTRA_IMAGE_FIELDS,
  SKIN_IMAGE_FIELDS,
  skinImageProblem,
  type Skin,
} from './skin';

/**
 * A change to a channel's skin (spec §3 fields): any of its colours and images, nothing else. Colours and image URLs
 * are held to what a page will put into a style attribute or an <img> (lib/channel/skin.ts), and images to the store's
 * own art or the deployment's media hosts (`skinImageProblem`, issue 29), for the channel `channelKey`.
 */
export function skinPatchSchema(channelKey: string, mediaOrigins: readonly string[]) {
  return z
    .strictObject({
      ...Object.fromEntries(SKIN_COLOR_FIELDS.map((f) => [f, cssColor.optional()])),
      ...Object.fromEntries([...SKIN_IMAGE_FIELDS, ...SKIN_EXTRA_IMAGE_FIELDS].map((f) => [f, imageUrl.optional()])),
    })
    .refine((patch) => Object.keys(patch).length > 0, 'must name at least one skin field')
    .superRefine((patch, ctx) => {
      for (const field of [...SKIN_IMAGE_FIELDS, ...SKIN_EXTRA_IMAGE_FIELDS]) {
        const src = patch[field];
        const problem = typeof src === 'string' ? skinImageProblem(src, channelKey, mediaOrigins) : null;
        if (problem) ctx.addIssue({ code: 'custom', path: [field], message: problem });
      }
    });
}

export type SkinPatch = Partial<Skin>;

/**
 * What a skin write does besides the update, in its transaction (issue 31: the console's publish records the skin
 * before and after in the audit trail, so the entry exists exactly when the change does).
 */
export type SkinWriteAudit = (tx: Db, change: { channelId: number; before: Skin; after: Skin }) => Promise<void>;

/**
 * Applies `patch` to the skin of channel `key` and returns the skin every page now shows, or null for an unknown
 * channel. With its commit, the channel's cached reads and rendered pages are dropped in this process and in every other
 * server process (issue 31), so the channel's next page view on any server shows the change (docs/caching.md).
 */
export async function updateChannelSkin(db: Db, key: string, patch: SkinPatch, audit?: SkinWriteAudit): Promise<Skin | null> {
  const updated = await writeInvalidating(db, async (tx, changed) => {
    const [row] = await tx
      .select({ id: channels.id, skinJson: channels.skinJson })
      .from(channels)
      .where(eq(channels.key, key))
      .for('update');
    if (!row) return null;
    const stored = storedSkin(row.skinJson);
    const skinJson = JSON.stringify({ ...stored, ...patch });
    await tx.update(channels).set({ skinJson }).where(eq(channels.key, key));
    const before = parseSkin(row.skinJson);
    const after = parseSkin(skinJson);
    if (audit) await audit(tx, { channelId: row.id, before, after });
    // Colours alone: the row, not the rendered pages, which take the colours from it when answered (lib/page/page-skin.ts).
    changed([onlyColoursChanged(before, after) ? tags.channelColours(key) : tags.channel(key)]);
    return skinJson;
  });
  if (updated === null) return null;
  return parseSkin(updated);
}

/** Whether two skins differ in their colours (spec §3) and nothing else. */
function onlyColoursChanged(before: Skin, after: Skin): boolean {
  const colours = new Set<string>(SKIN_COLOR_FIELDS);
  const fields = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...fields].every((field) => colours.has(field) || before[field as keyof Skin] === after[field as keyof Skin]);
}

/** The stored skin object as it is (fields the storefront does not read are kept), or none when it is not an object. */
function storedSkin(skinJson: string | null): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(skinJson ?? '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Operator texts travel to the SMS carrier and into logs (issue 29): no control character (NUL, line breaks, escape,
 * C1 controls; PostgreSQL cannot even store NUL) nor a lone UTF-16 surrogate (no UTF-8 for it), refused with the field
 * rather than trimmed away or failed on inside the UPDATE as an HTTP 500.
 */
const NO_CONTROL_CHARACTERS = /^[^\p{Cc}\p{Cs}]*$/u;
const CONTROL_CHARACTERS_REFUSED = 'must not contain control characters (NUL, line breaks, tabs) or broken Unicode';

export const paymentProvidersSchema = z
  .array(z.enum(PAYMENT_PROVIDER_NAMES, { error: `must name payment providers: ${PAYMENT_PROVIDER_NAMES.join(', ')}` }), {
    error: 'must be a list of payment provider names',
  })
  .max(PAYMENT_PROVIDER_NAMES.length, 'names a provider twice')
  .refine((names) => new Set(names).size === names.length, 'names a provider twice');

export const smsSignNameSchema = z
  .string({ error: 'must be a text or null' })
  .regex(NO_CONTROL_CHARACTERS, CONTROL_CHARACTERS_REFUSED)
  .trim()
  .min(2, 'must be 2 characters or more')
  .max(40, 'must be 40 characters or less')
  .nullable();

export const smsTemplateIdSchema = z
  .string({ error: 'must be a text or null' })
  .regex(NO_CONTROL_CHARACTERS, CONTROL_CHARACTERS_REFUSED)
  .trim()
  .regex(/^[A-Za-z0-9_]{1,64}$/, 'must be the carrier template id: letters, digits and _ (e.g. SMS_123456789 or 1234567)')
  .nullable();

/**
 * A change to how a channel sells (issue 18): the payment providers it offers, in the order its pay page lists them
 * (empty: every provider the deployment runs), and its own SMS sign name and template at the carrier (null: the
 * deployment's SMS_SIGN_NAME / SMS_TEMPLATE_ID).
 */
export const channelSettingsPatchSchema = z
  .strictObject({
    paymentProviders: paymentProvidersSchema,
    smsSignName: smsSignNameSchema,
    smsTemplateId: smsTemplateIdSchema,
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, 'must name at least one of paymentProviders, smsSignName, smsTemplateId');

export type ChannelSettings = { paymentProviders: string[]; smsSignName: string | null; smsTemplateId: string | null };

/**
 * Applies `patch` to channel `key` and returns its settings now, or null for an unknown channel; with its commit, the
 * channel's cached reads are dropped in every server process (issue 31).
 */
export async function updateChannelSettings(
  db: Db,
  key: string,
  patch: Partial<ChannelSettings>,
  audit?: (tx: Db, change: { channelId: number; before: ChannelSettings; after: ChannelSettings }) => Promise<void>,
): Promise<ChannelSettings | null> {
  return writeInvalidating(db, async (tx, changed) => {
    const columns = {
      paymentProviders: channels.paymentProviders,
      smsSignName: channels.smsSignName,
      smsTemplateId: channels.smsTemplateId,
    };
    const [before] = await tx
      .select({ id: channels.id, ...columns })
      .from(channels)
      .where(eq(channels.key, key))
      .for('update');
    if (!before) return null;
    const [row] = await tx.update(channels).set(patch).where(eq(channels.key, key)).returning(columns);
    const { id: channelId, ...was } = before;
    // The audit entry (issue 31) in the write's transaction: it exists exactly when the change does.
    if (audit) await audit(tx, { channelId, before: was, after: row! });
    changed([tags.channel(key)]);
    return row!;
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// The console's Settings tab (issue 31, "Channels"): each section of a channel's settings is one schema and saves on its
// own; every field out of range is refused with its name and nothing is changed (the schema runs before any write).

/** Multi-line texts (the agreements) keep line breaks and tabs, nothing else of the control characters. */
const NO_CONTROL_BUT_LINES = /^[^\p{Cs}\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*$/u;

const line = (max: number) =>
  z
    .string({ error: 'must be a text' })
    .regex(NO_CONTROL_CHARACTERS, CONTROL_CHARACTERS_REFUSED)
    .trim()
    .max(max, `must be ${max} characters or less`);

/**
 * A text an operator may leave empty: '' stores nothing (null) rather than an empty value the pages would show. null is
 * taken as empty too, so a section the settings read answers (null where nothing is set) saves back unchanged (issue 31).
 */
const optionalLine = (max: number) =>
  line(max)
    .nullable()
    .transform((value) => (value === '' || value === null ? null : value));

/** An IANA time zone the runtime knows (Asia/Shanghai, Europe/London): every date of the channel's pages is written in it. */
export const timeZoneSchema = line(64)
  .min(1, 'must not be empty')
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return zone.includes('/') || zone === 'UTC';
    } catch {
      return false;
    }
  }, 'must be an IANA time zone such as Asia/Shanghai');

/** spec §3 labelList: the features 1..4, at least one, each once. */
export const labelsSchema = z
  .array(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)], { error: 'must be labels 1 to 4' }), {
    error: 'must be a list of labels 1 to 4',
  })
  .min(1, 'must hold at least one label')
  .max(4, 'names a label twice')
  .refine((labels) => new Set(labels).size === labels.length, 'names a label twice');

/** The channel class attributes the spec names (spec §1, §2, §3; lib/db/schema.ts ChannelAttributes), each on or off. */
export const attributesSchema = z.strictObject(
  {
    hideAmount: z.boolean({ error: 'must be true or false' }).optional(),
    buyGoodsTitle: z.boolean({ error: 'must be true or false' }).optional(),
    giftOnly: z.boolean({ error: 'must be true or false' }).optional(),
    destroyTitledReceive: z.boolean({ error: 'must be true or false' }).optional(),
    noActive: z.boolean({ error: 'must be true or false' }).optional(),
  },
  { error: 'must be an object of attributes: hideAmount, buyGoodsTitle, giftOnly, destroyTitledReceive, noActive' },
);

/** A link the store's pages open: https, no credentials in it; '' or null: none (stored as null). */
const httpsUrl = (max: number) =>
  optionalLine(max).refine((value) => {
    if (value === null) return true;
    try {
      const url = new URL(value);
      return url.protocol === 'https:' && url.username === '' && url.password === '' && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be an https:// address');

/** The channel's own name, its brand, language, time zone, labels and class attributes, and its app links. */
export const channelProfileSchema = z.strictObject({
  name: line(60).min(1, 'must not be empty'),
  brandName: line(60).min(1, 'must not be empty'),
  /** null: each buyer's Accept-Language decides (lib/db/schema.ts). */
  locale: z.enum(['en', 'zh-CN'], { error: 'must be en or zh-CN, or null for the buyer’s language' }).nullable(),
  timeZone: timeZoneSchema,
  labels: labelsSchema,
  attributes: attributesSchema,
  /**
   * Where the deep-link helpers open the app (spec §1): its URL scheme alone (`artapp`, pages open at
   * `artapp://goods/detail/42`) or the scheme with the app's own link (`aurora://open`, as the demo channels store it;
   * pages open at `aurora://open/goods/detail/42`), the two forms `appLinkFor` (lib/channel/app-link.ts) turns into a
   * link. Never a web or script scheme. '' or null: no app links.
   */
  appScheme: optionalLine(100).refine(
    (scheme) => scheme === null || isAppLinkBase(scheme),
    'must be an app URL scheme such as artapp, or its link such as artapp://open (letters, digits, + . -; not http, https, javascript or data)',
  ),
  /** The app's download page; '' or null: none, and a buyer whose app does not open stays on the page (issue 30). */
  appDownloadUrl: httpsUrl(500),
});
export type ChannelProfile = z.output<typeof channelProfileSchema>;

const longText = (max: number) =>
  z
    .string({ error: 'must be a text' })
    .regex(NO_CONTROL_BUT_LINES, 'must not contain control characters other than line breaks and tabs, nor broken Unicode')
    .max(max, `must be ${max} characters or less`)
    .transform((value) => value.trim());

/**
 * The channel's texts (spec §3): market, buy and exchange texts, and its own privacy and sales-strategy agreements; an
 * empty agreement leaves the template (lib/channel/agreements.ts) in force. Sized so all five fit one call's body.
 */
export const channelTextsSchema = z.strictObject({
  marketText: longText(1000),
  buyText: longText(1000),
  exchangeText: longText(1000),
  privacyText: longText(8000),
  salesStrategyText: longText(8000),
});
export type ChannelTexts = z.output<typeof channelTextsSchema>;

/** A phone buyers can call: digits with the usual separators, e.g. 400-123-4567 or +86 10 1234 5678. */
const SERVICE_PHONE = /^\+?[0-9][0-9 ()-]{3,23}[0-9]$/;

/** How buyers reach customer service (issue 31): each optional, at least a phone, an e-mail or a web page to be shown. */
export const customerServiceSchema = z.strictObject({
  phone: optionalLine(25).refine((v) => v === null || SERVICE_PHONE.test(v), 'must be a phone number such as 400-123-4567'),
  hours: optionalLine(60),
  email: optionalLine(120).refine((v) => v === null || z.email().safeParse(v).success, 'must be an e-mail address'),
  url: httpsUrl(300),
});

/** The compliance footer's numbers (lib/channel/compliance.ts); '' clears one (not shown). */
export const complianceSchema = z.strictObject({
  icpFiling: optionalLine(40).refine(
    (v) => v === null || ICP_FILING.test(v),
    'must be an ICP filing number such as 京ICP备12345678号-1 (no spaces)',
  ),
  publicSecurityFiling: optionalLine(40).refine(
    (v) => v === null || PUBLIC_SECURITY_FILING.test(v),
    'must be a public security filing number such as 京公网安备11010502030143号 (14 digits, no spaces)',
  ),
  blockchainFiling: optionalLine(40).refine(
    (v) => v === null || BLOCKCHAIN_FILING.test(v),
    'must be a blockchain information service filing number such as 京网信备11010519512345678901号 (no spaces)',
  ),
});

/** The SMS sender (the settings of issue 18): the channel's sign name and template at the carrier, or the deployment's. */
export const smsSenderSchema = z.strictObject({ smsSignName: smsSignNameSchema, smsTemplateId: smsTemplateIdSchema });

/** The payment providers the channel offers, in the order its pay page lists them (empty: every one the deployment runs). */
export const paymentSchema = z.strictObject({ paymentProviders: paymentProvidersSchema });

/** A channel's columns an operator's write sets (never its id, key or creation time). */
export type ChannelColumns = Partial<Omit<typeof channels.$inferInsert, 'id' | 'key' | 'createdAt'>>;

/** What a write hands its audit record (lib/operator/audit.ts), inside the write's transaction: the row's fields before and after. */
export type ChannelChange = { channelId: number; before: Record<string, unknown> | null; after: Record<string, unknown> };
export type RecordChannelChange = (tx: Db, change: ChannelChange) => Promise<void>;

function pick(row: ChannelRow, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f, (row as Record<string, unknown>)[f]]));
}

/**
 * Sets `columns` of channel `key` and returns the row now, or null for an unknown channel. The row is locked, changed
 * and recorded (`record`, with the changed fields before and after) in one transaction; with its commit the channel's
 * cached reads and rendered pages are dropped in every server process (issue 31), so its next page view anywhere shows it.
 */
export async function changeChannel(db: Db, key: string, columns: ChannelColumns, record: RecordChannelChange): Promise<ChannelRow | null> {
  return writeInvalidating(db, async (tx, changed) => {
    const [before] = await tx.select().from(channels).where(eq(channels.key, key)).for('update');
    if (!before) return null;
    const [after] = await tx.update(channels).set(columns).where(eq(channels.id, before.id)).returning();
    const fields = Object.keys(columns);
    await record(tx, { channelId: before.id, before: pick(before, fields), after: pick(after!, fields) });
    changed([tags.channel(key)]);
    return after!;
  });
}

/** What the deployment's hosts are (lib/env.ts BRAND_WORD, OPERATOR_HOST); tests pass their own. */
export type ChannelHosts = { brandWord: string; operatorHost: string };

/** The spec §1 key host of a new channel: its key in lower case under the brand domain (newshop.localhost). */
export function keyHostOf(key: string, hosts: Pick<ChannelHosts, 'brandWord'>): string {
  return `${key.toLowerCase()}.${hosts.brandWord.trim().toLowerCase()}`;
}

/** The columns of a new channel besides its key and host (the rest take the table's defaults). */
export type NewChannel = Pick<
  typeof channels.$inferInsert,
  'name' | 'brandName' | 'locale' | 'timeZone' | 'labelList' | 'attributes' | 'status' | 'identityPolicy'
>;

/**
 * Creates channel `key` (issue 31), served at once on its key host by the spec §1 rule on every process: the insert's
 * commit drops the cached "no such channel" of that key everywhere. Refused with the field `key`: the operator host's
 * key (OPS, reserved), a key its own host would not name (the brand word inside it), a key that exists.
 */
export async function createChannel(
  db: Db,
  key: string,
  values: NewChannel,
  hosts: ChannelHosts,
  record: RecordChannelChange,
): Promise<ChannelRow> {
  if (key === 'OPS' || key === channelKeyFromHost(hosts.operatorHost, hosts.brandWord))
    throw new AppError(400, msg('opsChannelKeyReserved'));
  const host = keyHostOf(key, hosts);
  if (channelKeyFromHost(host, hosts.brandWord) !== key) throw new AppError(400, msg('opsChannelKeyHost', { host }));
  try {
    return await writeInvalidating(db, async (tx, changed) => {
      const [taken] = await tx.select({ id: channels.id }).from(channels).where(eq(channels.key, key));
      if (taken) throw new AppError(409, msg('opsChannelKeyTaken'));
      const [row] = await tx
        .insert(channels)
        .values({ key, host, ...values })
        .returning();
      await record(tx, { channelId: row!.id, before: null, after: row! });
      changed([tags.channel(key)]);
      return row!;
    });
  } catch (error) {
    // Two owners creating one key at once: the second meets the unique key, and the same refusal as a key that exists.
    if (isUniqueViolation(error)) throw new AppError(409, msg('opsChannelKeyTaken'));
    throw error;
  }
}
