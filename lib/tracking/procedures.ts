import 'server-only';
import { channelScope, procedure, viewerScope } from '../procedure/procedure';
import { trackingAnswerSchema, trackingBatchSchema } from './schema';
import { admitTrackingBatch, ingestTrackingBatch, inAppPageViews } from './service';
import { isPersonAgent, pageViewRecorder } from '../channel/page-views';
import { recordShareVisits } from '../share/attribution';
import { deviceCookie, deviceIdFrom, deviceKey } from '../security/device';
import { env } from '../env';

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
      // issue 36 (docs/sharing.md): a page opened through a buyer's share link (`?from=`) is that buyer's share visit;
      // the buyer behind the tracker is read only for such a batch, or one that reports the pay page.
      await recordShareVisits(
        ctx.db,
        scope.channelId,
        ctx.now,
        input.records.slice(0, admitted),
        async () => (await viewerScope(ctx)).userId,
        () => {
          // The browser's storefront_device cookie, issued here when it has none, so the order it buys names the same device.
          let id = deviceIdFrom(ctx.headers.get('cookie'));
          if (!id) {
            const fresh = deviceCookie(ctx.headers.get('x-forwarded-proto') === 'https');
            ctx.setHeader('set-cookie', fresh.header);
            id = fresh.id;
          }
          return deviceKey(id, env().AUTH_SECRET);
        },
      );
      // The store's page views (issue 32, "Reports"): the proxy counts the pages a browser opens by address, but a page
      // reached inside the app is a router fetch whose headers Next removes before the proxy sees them, so it is counted
      // here from the page tracker's record of it (a page_view with the page it came from).
      const inApp = inAppPageViews(input.records.slice(0, admitted));
      if (inApp > 0 && isPersonAgent(ctx.headers.get('user-agent'))) {
        const channel = await ctx.channel();
        const views = pageViewRecorder(() => ctx.db);
        for (let i = 0; i < inApp; i++) views.count(channel.id, channel.timeZone, ctx.now);
      }
      // Dropped over the channel's daily cap: still answered as taken, so browsers do not resend them.
      return { accepted: input.records.length, stored: stored.accepted };
    },
  }),
};
