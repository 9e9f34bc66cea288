import 'server-only';
import { channelScope, procedure } from '../procedure/procedure';
import { trackingAnswerSchema, trackingBatchSchema } from './schema';
import { admitTrackingBatch, ingestTrackingBatch } from './service';

/** Tracking ingest (spec §7 log service). */
export const trackingProcedures = {
  '/log/track': procedure({
    summary:
      'Tracking ingest (spec §7 log service): a batch of up to 50 records of the host channel; serv_time is stamped here. Limited per IP and session (429), capped per channel and day.',
    auth: 'none',
    input: trackingBatchSchema,
    output: trackingAnswerSchema,
    handler: async (ctx, input) => {
      const scope = await channelScope(ctx);
      const admitted = await admitTrackingBatch({ ...scope, ip: ctx.ip }, input.records);
      const stored = await ingestTrackingBatch(scope, input.records.slice(0, admitted));
      // Dropped over the channel's daily cap: still answered as taken, so browsers do not resend them.
      return { accepted: input.records.length, stored: stored.accepted };
    },
  }),
};
