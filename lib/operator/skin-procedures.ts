import 'server-only';
import { z } from 'zod';
import { env } from '../env';
import { parseSkin, SKIN_COLOR_FIELDS, SKIN_EXTRA_IMAGE_FIELDS, SKIN_IMAGE_FIELDS, type Skin } from '../channel/skin';
import { skinPatchSchema, updateChannelSkin } from '../channel/operator';
import { procedure } from '../procedure/procedure';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import type { OperatorRole } from '../procedure/roles';
import { ANY_ROLE } from '../procedure/roles';
import { auditCall } from './audit';

/**
 * The skin editor's calls (issue 31, "Channels": edit the skin with a live preview, upload the brand images). An owner
 * or a manager granted the channel writes; support reads. docs/operators.md, "The skin".
 */

/** Who may change a skin (publish it, upload its images): support reads only (issue 31, "Operator accounts"). */
export const SKIN_WRITERS: readonly OperatorRole[] = ['owner', 'manager'];

const channelKey = z
  .string({ error: 'is required and must be a string' })
  .regex(/^[A-Z0-9]{1,64}$/, 'must be a channel key: upper-case letters and digits');

const skinShape = z.object(
  Object.fromEntries([...SKIN_COLOR_FIELDS, ...SKIN_IMAGE_FIELDS, ...SKIN_EXTRA_IMAGE_FIELDS].map((f) => [f, z.string().optional()])),
);

/** The skin as the console shows it: every field, the optional images as null when unset. */
function consoleSkin(skin: Skin): Record<string, string | null> {
  return Object.fromEntries(
    [...SKIN_COLOR_FIELDS, ...SKIN_IMAGE_FIELDS, ...SKIN_EXTRA_IMAGE_FIELDS].map((f) => [
      f,
      (skin as Record<string, string | undefined>)[f] ?? null,
    ]),
  );
}

const consoleSkinOutput = z.record(z.string(), z.string().nullable());

export const skinProcedures = {
  '/ops/api/skin/get': procedure({
    summary: "A channel's published skin (spec §3 colours and images, and the brand's share image and favicon source).",
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.object({ channel: channelKey }),
    output: z.object({ skin: consoleSkinOutput }),
    handler: async (ctx) => ({ skin: consoleSkin(parseSkin((await ctx.operatorChannel()).skinJson)) }),
  }),
  '/ops/api/skin/publish': procedure({
    summary:
      "Publishes a draft of a channel's skin in one write: the fields named change, the others stay; audited with the skin before and after, and shown on the channel's next page view on every server.",
    auth: 'operator',
    operator: { roles: SKIN_WRITERS, channel: 'input', writes: 'changes' },
    // Each field is checked as the store would put it into a page (lib/channel/operator.ts skinPatchSchema), for this
    // channel's own art and the deployment's media hosts; a bad one is refused by its name (`skin.color1: ...`).
    input: z.object({ channel: channelKey, skin: skinShape.catchall(z.unknown()) }).superRefine((input, ctx) => {
      const parsed = skinPatchSchema(input.channel, env().MEDIA_ORIGINS).safeParse(input.skin);
      if (parsed.success) return;
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: ['skin', ...issue.path] } as z.core.$ZodRawIssue);
    }),
    output: z.object({ skin: consoleSkinOutput }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const patch = skinPatchSchema(channel.key, env().MEDIA_ORIGINS).parse(input.skin);
      const skin = await updateChannelSkin(
        ctx.db,
        channel.key,
        patch,
        auditCall(ctx, 'skin/publish', { channel: channel.key, skin: patch }),
      );
      if (!skin) throw new AppError(404, msg('opsChannelNotGranted'));
      return { skin: consoleSkin(skin) };
    },
  }),
};
