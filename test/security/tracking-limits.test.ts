import { and, eq, sql } from 'drizzle-orm';
import { channels, trackingEvents } from '@/lib/db/schema';
import { TRACKING_LIMITS } from '@/lib/tracking/service';
import { RETENTION, sweepExpiredRecords } from '@/lib/jobs/retention';
import { securityHarness } from './support';

// Security review, finding 7: /api/log/track took unlimited anonymous writes (73,850 records in 20 s, +246 MB).

const h = securityHarness();

const record = (session: string, i = 0) => ({
  dev_id: 'dev-1',
  proj_id: 5,
  session_id: session,
  up_time: 1_800_000_000_000 + i,
  event_type: 'page_view',
  page_id: 'home',
  page_url: 'http://aurora.localhost/',
});
const batch = (session: string | ((i: number) => string), n = 50) => ({
  records: Array.from({ length: n }, (_, i) => record(typeof session === 'string' ? session : session(i), i)),
});

async function stored(channelKey = 'AURORA'): Promise<number> {
  const [row] = await h
    .db()
    .select({ n: sql<number>`count(*)::int` })
    .from(trackingEvents)
    .innerJoin(channels, eq(channels.id, trackingEvents.channelId))
    .where(eq(channels.key, channelKey));
  return row!.n;
}

describe('tracking ingest limits (finding 7)', () => {
  it('limits one session', async () => {
    const ip = '198.18.1.1';
    const batches = TRACKING_LIMITS.perSessionPerHour / 50;
    for (let i = 0; i < batches; i++) expect((await h.call('/log/track', batch('one-tab'), { ip })).body.code).toBe(200);
    const over = await h.call('/log/track', batch('one-tab', 1), { ip });
    expect(over.body).toMatchObject({
      code: 429,
      message: expect.stringMatching(/^Too many tracking records from this sender\. Please try again in/),
      data: { field: 'records' },
    });
    // Another tab from the same address is still heard.
    expect((await h.call('/log/track', batch('another-tab', 1), { ip })).body.code).toBe(200);
  });

  it('limits one address however many sessions it makes up', async () => {
    const ip = '198.18.1.2';
    const before = await stored();
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < TRACKING_LIMITS.perIpPerHour / 50 + 5; i++) {
      const res = await h.call('/log/track', batch(`made-up-${i}`), { ip });
      if (res.body.code === 200) accepted += 50;
      else if (res.body.code === 429) refused++;
    }
    expect(accepted).toBe(TRACKING_LIMITS.perIpPerHour);
    expect(refused).toBe(5);
    expect((await stored()) - before).toBe(TRACKING_LIMITS.perIpPerHour);
    // An hour later it may send again.
    expect((await h.call('/log/track', batch('later', 1), { ip, at: new Date(h.now().getTime() + 3600_000) })).body.code).toBe(200);
  });

  it('stores at most the daily cap per channel, and answers the rest as taken so browsers stop resending', async () => {
    const { rateLimits } = await import('@/lib/db/schema');
    const [lumen] = await h.db().select({ id: channels.id }).from(channels).where(eq(channels.key, 'LUMEN'));
    const day = new Date(Math.floor(h.now().getTime() / 86_400_000) * 86_400_000);
    await h
      .db()
      .insert(rateLimits)
      .values({
        bucket: `track:channel:${lumen!.id}`,
        windowStart: day,
        hits: TRACKING_LIMITS.perChannelPerDay - 3,
        expiresAt: new Date(day.getTime() + 86_400_000),
      });
    const before = await stored('LUMEN');
    const res = await h.call('/log/track', batch('lumen-tab', 10), { host: 'lumen.localhost', ip: '198.18.1.3' });
    expect(res.body).toEqual({ code: 200, message: 'ok', data: { accepted: 10, stored: 3 } });
    expect((await stored('LUMEN')) - before).toBe(3);
  });

  it(`ages records out after ${RETENTION.trackingDays} days`, async () => {
    const [gift] = await h.db().select({ id: channels.id }).from(channels).where(eq(channels.key, 'GIFT'));
    const old = new Date(h.now().getTime() - (RETENTION.trackingDays + 1) * 86_400_000);
    await h
      .db()
      .insert(trackingEvents)
      .values({ channelId: gift!.id, eventType: 'page_view', pageId: 'old', sessionId: 's', servTime: old, record: {} });
    await h
      .db()
      .insert(trackingEvents)
      .values({ channelId: gift!.id, eventType: 'page_view', pageId: 'new', sessionId: 's', servTime: h.now(), record: {} });
    const swept = await sweepExpiredRecords(h.db(), h.now());
    expect(swept.tracking).toBe(1);
    const left = await h
      .db()
      .select({ pageId: trackingEvents.pageId })
      .from(trackingEvents)
      .where(and(eq(trackingEvents.channelId, gift!.id)));
    expect(left.map((r) => r.pageId)).toEqual(['new']);
  });
});
