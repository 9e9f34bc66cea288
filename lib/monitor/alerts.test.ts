import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { createTestDb } from '@/test/db';
import { startFakeHttp } from '@/test/fake-http';
import { alerts, channels } from '@/lib/db/schema';
import type { Db } from '@/lib/db/client';
import { ALERT_QUIET_MS, listAlerts, raiseAlert, type Webhook } from './alerts';

/**
 * issue 32, "Alerts": an alert is recorded, posted once to the owner's webhook with a valid signature (a fake receiver
 * on loopback checks body and signature), and not again within the hour.
 */
let db: Db;
let close: () => Promise<void>;
let fake: Awaited<ReturnType<typeof startFakeHttp>>;
let channelId = 0;
const NOW = new Date('2026-05-01T10:00:00Z');
const SECRET = 'SEC0123456789abcdef';

beforeAll(async () => {
  ({ db, close } = await createTestDb());
  const [channel] = await db
    .insert(channels)
    .values({ key: 'ALERTS', host: 'alerts.localhost', name: 'Alerts', brandName: 'Alerts', labelList: '1' })
    .returning({ id: channels.id });
  channelId = channel!.id;
  fake = await startFakeHttp(() => ({ status: 200, body: '{"errcode":0}' }));
});
afterAll(async () => {
  await fake.close();
  await close();
});
beforeEach(() => fake.requests.splice(0));

const soldOut = (subject: string) => ({ kind: 'soldOut' as const, channelId, subject, detail: `${subject} sold out` });
const quiet = () => jest.spyOn(console, 'error').mockImplementation(() => {});

describe('raiseAlert', () => {
  it('posts a DingTalk alert once, signed as DingTalk checks it, and not again within the hour', async () => {
    quiet();
    const hook: Webhook = { url: `${fake.origin}/robot/send?access_token=t1`, format: 'dingtalk', secret: SECRET };
    expect(await raiseAlert(db, soldOut('sale 1'), NOW, { webhook: hook, channelKey: 'ALERTS' })).toBe(true);
    expect(await raiseAlert(db, soldOut('sale 1'), new Date(NOW.getTime() + ALERT_QUIET_MS - 1), { webhook: hook })).toBe(false);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    const url = new URL(request!.url, fake.origin);
    const timestamp = url.searchParams.get('timestamp')!;
    expect(timestamp).toBe(String(NOW.getTime()));
    // The receiver's check, as DingTalk documents it: base64(HmacSHA256(secret, timestamp + "\n" + secret)).
    expect(url.searchParams.get('sign')).toBe(createHmac('sha256', SECRET).update(`${timestamp}\n${SECRET}`).digest('base64'));
    expect(url.searchParams.get('access_token')).toBe('t1');
    expect(JSON.parse(request!.body)).toEqual({ msgtype: 'text', text: { content: '[alert] soldOut ALERTS: sale 1 sold out' } });
    const recorded = await db.select().from(alerts).where(eq(alerts.subject, 'sale 1'));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.deliveredAt).not.toBeNull();
    // An hour later the same event is an alert again.
    expect(await raiseAlert(db, soldOut('sale 1'), new Date(NOW.getTime() + ALERT_QUIET_MS), { webhook: hook })).toBe(true);
    expect(fake.requests).toHaveLength(2);
  });

  it('signs a Feishu body with its timestamp, and posts plain JSON signed with our header', async () => {
    quiet();
    await raiseAlert(db, soldOut('sale 2'), NOW, { webhook: { url: `${fake.origin}/feishu`, format: 'feishu', secret: SECRET } });
    const feishu = JSON.parse(fake.requests[0]!.body) as { timestamp: string; sign: string; msg_type: string; content: { text: string } };
    expect(feishu.timestamp).toBe(String(NOW.getTime() / 1000));
    expect(feishu.sign).toBe(createHmac('sha256', `${feishu.timestamp}\n${SECRET}`).update('').digest('base64'));
    expect(feishu).toMatchObject({ msg_type: 'text', content: { text: '[alert] soldOut: sale 2 sold out' } });

    await raiseAlert(db, soldOut('sale 3'), NOW, { webhook: { url: `${fake.origin}/hook`, format: 'json', secret: SECRET } });
    const json = fake.requests[1]!;
    const ts = json.headers['x-storefront-timestamp'] as string;
    expect(json.headers['x-storefront-signature']).toBe(createHmac('sha256', SECRET).update(`${ts}.${json.body}`).digest('hex'));
    expect(JSON.parse(json.body)).toMatchObject({ kind: 'soldOut', subject: 'sale 3' });
  });

  it('keeps the alert, with why, when the webhook refuses it; two processes raising at once make one alert', async () => {
    quiet();
    const refusing = await startFakeHttp(() => ({ status: 500, body: '' }));
    try {
      await raiseAlert(db, soldOut('sale 4'), NOW, { webhook: { url: refusing.origin, format: 'wecom' } });
      const [row] = await db.select().from(alerts).where(eq(alerts.subject, 'sale 4'));
      expect(row).toMatchObject({ deliveredAt: null, deliveryError: 'HTTP 500' });
    } finally {
      await refusing.close();
    }
    const raced = await Promise.all([1, 2, 3].map(() => raiseAlert(db, soldOut('sale 5'), NOW, { webhook: null })));
    expect(raced.filter(Boolean)).toHaveLength(1);
    const listed = await listAlerts(db, channelId, new Date(NOW.getTime() - 1));
    expect(listed.filter((a) => a.subject === 'sale 5')).toHaveLength(1);
  });
});
