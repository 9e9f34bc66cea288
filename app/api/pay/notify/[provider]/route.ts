import { getDb } from '@/lib/db/client';
import { env } from '@/lib/env';
import { paymentProvider, receiveNotification } from '@/lib/payment/service';
import { NotificationError } from '@/lib/payment/provider';
import { readBodyWithin } from '@/lib/server/http';

/** Notifications are small; the body is not read past this (security review, finding 13). */
const MAX_NOTIFICATION_BYTES = 16_384;

export const dynamic = 'force-dynamic';

/**
 * Payment notifications, server to server (DESIGN §7): the provider POSTs here; the body is verified by its
 * signature, amount-checked and applied exactly once (lib/payment/service.ts). A genuine repeat answers 200 again,
 * so the provider stops retrying; a forged or mismatched one answers 400 with the reason and changes nothing.
 */
export async function POST(request: Request, { params }: { params: Promise<{ provider: string }> }): Promise<Response> {
  const { provider: name } = await params;
  if (name !== env().PAYMENT_PROVIDER)
    return Response.json({ ok: false, message: `provider: ${name} is not the configured provider` }, { status: 404 });
  const body = await readBodyWithin(request, MAX_NOTIFICATION_BYTES);
  if (body === null)
    return Response.json({ ok: false, message: 'body: must be 16 KiB or less' }, { status: 413, headers: { connection: 'close' } });
  const db = getDb();
  try {
    const outcome = await receiveNotification(db, paymentProvider(db), body, request.headers, new Date());
    return Response.json({ ok: true, outcome });
  } catch (error) {
    if (error instanceof NotificationError) return Response.json({ ok: false, message: error.message }, { status: 400 });
    console.error('[pay] notification failed', error);
    return Response.json({ ok: false, message: 'internal error; retry later' }, { status: 500 });
  }
}
