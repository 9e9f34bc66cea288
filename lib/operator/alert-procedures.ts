import 'server-only';
import { z } from 'zod';
import { channelKeySchema } from '../procedure/schemas';
import { env } from '../env';
import { procedure, type ProcedureContext } from '../procedure/procedure';
import type { OperatorRule } from '../procedure/roles';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { sendTestAlert } from '../monitor/alerts';
import {
  maskedUrl,
  readChannelWebhook,
  removeChannelWebhook,
  setChannelWebhook,
  WEBHOOK_FORMATS,
  WEBHOOK_URL_MAX,
  type WebhookAudit,
  type WebhookView,
} from '../monitor/webhooks';
import { auditCall } from './audit';

/**
 * The alert webhook section of the Reports tab (issue 32, "Reports": alerts go "to a webhook the owner sets (WeCom,
 * DingTalk, Feishu, or any URL)"): read, set or change, test and remove a channel's own webhook. Owners only: a webhook
 * sends the channel's trouble out of the deployment, and its URL is the robot's key. Every write is audited in its
 * transaction with the webhook before and after as the console shows it (URL masked, `signed` yes or no); the signing
 * secret is never in an answer or the trail (lib/monitor/webhooks.ts seals it). The test is an audited event: who made
 * the deployment post where.
 */

const OWNERS: OperatorRule['roles'] = ['owner'];

const channelKey = channelKeySchema;

const blankIsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const webhookView = z.object({
  url: z.string(),
  format: z.enum(WEBHOOK_FORMATS),
  signed: z.boolean(),
  updatedAt: z.string(),
});

const wire = (view: WebhookView) => ({ ...view, updatedAt: view.updatedAt.toISOString() });

/** The audit hook of one call: the webhook before and after as the console shows it. */
function auditOf(ctx: ProcedureContext, path: string, input: { channel: string; url?: string }): WebhookAudit {
  // The URL typed is the robot's key: the trail keeps it masked, as the console shows it.
  const record = auditCall(ctx, path, input.url === undefined ? input : { ...input, url: maskedUrl(input.url) });
  const wired = (side: { webhook: WebhookView | null } | null) => (side ? { webhook: side.webhook ? wire(side.webhook) : null } : null);
  return (tx, change) => record(tx, { channelId: change.channelId, before: wired(change.before), after: wired(change.after) });
}

export const alertProcedures = {
  '/ops/api/alert/webhook': procedure({
    summary:
      "A channel's own alert webhook: its URL (tokens masked), format and whether posts are signed, or null; and whether the deployment's webhook (ALERT_WEBHOOK_URL) also gets every alert. Owners only. The signing secret is never answered.",
    auth: 'operator',
    operator: { roles: OWNERS, channel: 'input' },
    input: z.object({ channel: channelKey }),
    output: z.object({ webhook: webhookView.nullable(), deploymentWebhook: z.boolean() }),
    handler: async (ctx) => {
      const channel = await ctx.operatorChannel();
      const view = await readChannelWebhook(ctx.db, channel.id);
      return { webhook: view ? wire(view) : null, deploymentWebhook: Boolean(env().ALERT_WEBHOOK_URL) };
    },
  }),
  '/ops/api/alert/webhook/set': procedure({
    summary:
      "Sets or changes a channel's alert webhook: `url` (omitted: keep the one set), `format` (json, wecom, dingtalk, feishu) and `secret`, the signing secret of DingTalk, Feishu or json (omitted or blank: keep the one set; null: no signature). The channel's alerts then go there too, retried after 1, 5 and 30 minutes when a post fails. Refused naming the field: a URL that is not http(s), carries a user or password, is not https in production or points inside the deployment's network (production); a secret for wecom; no URL when none is set. Owners only; audited without the secret.",
    auth: 'operator',
    operator: { roles: OWNERS, channel: 'input', writes: 'changes' },
    input: z.object({
      channel: channelKey,
      url: z.preprocess(
        blankIsUnset,
        z
          .string({ error: 'must be a web address' })
          .trim()
          .max(WEBHOOK_URL_MAX, `must be at most ${WEBHOOK_URL_MAX} characters`)
          .optional(),
      ),
      format: z.enum(WEBHOOK_FORMATS),
      secret: z.preprocess(
        blankIsUnset,
        z
          .string({ error: 'must be a text' })
          .trim()
          .min(8, 'must be at least 8 characters')
          .max(200, 'must be at most 200 characters')
          .nullable()
          .optional(),
      ),
    }),
    output: webhookView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const audit = auditOf(ctx, '/ops/api/alert/webhook/set', input);
      const view = await setChannelWebhook(
        ctx.db,
        { channelId: channel.id, url: input.url, format: input.format, secret: input.secret, now: ctx.now },
        audit,
      );
      return wire(view);
    },
  }),
  '/ops/api/alert/webhook/test': procedure({
    summary:
      "Posts a test alert to the channel's webhook now, as an alert goes, and answers whether the receiver took it, its HTTP status (null when it did not answer) and what it said (or why nothing was answered). Nothing is recorded but the audit entry. 404 when the channel has no webhook. Owners only.",
    auth: 'operator',
    operator: { roles: OWNERS, channel: 'input', writes: 'event' },
    input: z.object({ channel: channelKey }),
    output: z.object({ taken: z.boolean(), status: z.number().int().nullable(), said: z.string() }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      // The event is recorded before the post: a post that hangs or fails was still made by this operator.
      await auditCall(ctx, '/ops/api/alert/webhook/test', input)(ctx.db, { channelId: channel.id, before: undefined, after: undefined });
      const outcome = await sendTestAlert(ctx.db, channel, ctx.now);
      if (!outcome) throw new AppError(404, msg('alertWebhookNone'));
      return { taken: outcome.taken, status: outcome.status, said: outcome.problem ?? outcome.said };
    },
  }),
  '/ops/api/alert/webhook/remove': procedure({
    summary:
      "Removes a channel's alert webhook: its alerts then go only to the deployment's webhook, if any; posts still being retried to it are given up. 404 when none is set. Owners only; audited.",
    auth: 'operator',
    operator: { roles: OWNERS, channel: 'input', writes: 'removes' },
    input: z.object({ channel: channelKey }),
    output: z.object({ removed: z.literal(true) }),
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      await removeChannelWebhook(ctx.db, channel.id, auditOf(ctx, '/ops/api/alert/webhook/remove', input));
      return { removed: true as const };
    },
  }),
};
