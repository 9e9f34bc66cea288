import { getDb } from '@/lib/db/client';
import { handleNotification, MAX_NOTIFICATION_BYTES } from '@/lib/payment/notify';
import { providerNamed } from '@/lib/payment/providers';
import { readBodyWithin } from '@/lib/server/http';

export const dynamic = 'force-dynamic';

/** Payment notifications, server to server (DESIGN §7): lib/payment/notify.ts. */
export async function POST(request: Request, { params }: { params: Promise<{ provider: string }> }): Promise<Response> {
  const { provider: name } = await params;
  const db = getDb();
  const provider = providerNamed(db, name);
  // An unknown provider's body is not worth reading.
  const body = provider ? await readBodyWithin(request, MAX_NOTIFICATION_BYTES) : '';
  return handleNotification({ provider, name, body, headers: request.headers }, db);
}
