import 'server-only';
import type { Db } from '../db/client';
import { NotificationError, NotificationIgnored, type PaymentProvider } from './provider';
import { receiveNotification } from './service';

/** Notifications are small; the body is not read past this (security review, finding 13). */
export const MAX_NOTIFICATION_BYTES = 16_384;

/**
 * POST /api/pay/notify/:provider (the body read up to MAX_NOTIFICATION_BYTES; null past it) (DESIGN §7), server to server: the provider named in the path (one the deployment
 * runs) verifies the notification (signature, freshness, its own checks), then it is amount-checked against the payment,
 * which must be that provider's, and applied exactly once. Answered as that provider expects: a genuine repeat is
 * accepted again so the provider stops retrying, and so is a genuine one with nothing to apply; a forged or mismatched one is refused with the reason and changes
 * nothing; a fault of ours asks the provider to retry later.
 */
export async function handleNotification(
  notification: { provider: PaymentProvider | null; name: string; body: string | null; headers: Headers },
  db: Db,
  now: Date = new Date(),
): Promise<Response> {
  const { provider, name, body } = notification;
  if (!provider) return Response.json({ code: 'FAIL', message: `provider: ${name} is not a configured provider` }, { status: 404 });
  if (body === null) {
    const refused = provider.answerNotification({ ok: false, status: 400, message: 'body: must be 16 KiB or less' });
    return new Response(refused.body, { status: 413, headers: { ...Object.fromEntries(refused.headers), connection: 'close' } });
  }
  try {
    const outcome = await receiveNotification(db, provider, body, notification.headers, now);
    return provider.answerNotification({ ok: true, outcome });
  } catch (error) {
    if (error instanceof NotificationIgnored) {
      // Genuine, nothing to apply: acknowledged so the provider stops sending it; nothing changed.
      console.info(`[pay] ${provider.name} notification ignored: ${error.message}`);
      return provider.answerNotification({ ok: true, outcome: 'ignored' });
    }
    if (error instanceof NotificationError) {
      console.warn(`[pay] ${provider.name} notification refused: ${error.message}`);
      return provider.answerNotification({ ok: false, status: 400, message: error.message });
    }
    console.error('[pay] notification failed', error);
    return provider.answerNotification({ ok: false, status: 500, message: 'internal error; retry later' });
  }
}
