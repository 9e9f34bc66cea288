import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { tags, writeInvalidating } from '../cache/store';
import type { Db } from '../db/client';
import { channels } from '../db/schema';
import { PAYMENT_PROVIDER_NAMES } from '../env';
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
    if (audit) await audit(tx, { channelId: row.id, before: parseSkin(row.skinJson), after: parseSkin(skinJson) });
    changed([tags.channel(key)]);
    return skinJson;
  });
  if (updated === null) return null;
  return parseSkin(updated);
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

/**
 * A change to how a channel sells (issue 18): the payment providers it offers, in the order its pay page lists them
 * (empty: every provider the deployment runs), and its own SMS sign name and template at the carrier (null: the
 * deployment's SMS_SIGN_NAME / SMS_TEMPLATE_ID).
 */
export const channelSettingsPatchSchema = z
  .strictObject({
    paymentProviders: z
      .array(z.enum(PAYMENT_PROVIDER_NAMES, { error: `must name payment providers: ${PAYMENT_PROVIDER_NAMES.join(', ')}` }), {
        error: 'must be a list of payment provider names',
      })
      .max(PAYMENT_PROVIDER_NAMES.length, 'names a provider twice')
      .refine((names) => new Set(names).size === names.length, 'names a provider twice'),
    smsSignName: z
      .string({ error: 'must be a text or null' })
      .regex(NO_CONTROL_CHARACTERS, CONTROL_CHARACTERS_REFUSED)
      .trim()
      .min(2, 'must be 2 characters or more')
      .max(40, 'must be 40 characters or less')
      .nullable(),
    smsTemplateId: z
      .string({ error: 'must be a text or null' })
      .regex(NO_CONTROL_CHARACTERS, CONTROL_CHARACTERS_REFUSED)
      .trim()
      .regex(/^[A-Za-z0-9_]{1,64}$/, 'must be the carrier template id: letters, digits and _ (e.g. SMS_123456789 or 1234567)')
      .nullable(),
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, 'must name at least one of paymentProviders, smsSignName, smsTemplateId');

export type ChannelSettings = { paymentProviders: string[]; smsSignName: string | null; smsTemplateId: string | null };

/**
 * Applies `patch` to channel `key` and returns its settings now, or null for an unknown channel; with its commit, the
 * channel's cached reads are dropped in every server process (issue 31).
 */
export async function updateChannelSettings(db: Db, key: string, patch: Partial<ChannelSettings>): Promise<ChannelSettings | null> {
  return writeInvalidating(db, async (tx, changed) => {
    const [row] = await tx.update(channels).set(patch).where(eq(channels.key, key)).returning({
      paymentProviders: channels.paymentProviders,
      smsSignName: channels.smsSignName,
      smsTemplateId: channels.smsTemplateId,
    });
    if (!row) return null;
    changed([tags.channel(key)]);
    return row;
  });
}
