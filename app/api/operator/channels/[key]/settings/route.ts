import { getDb } from '@/lib/db/client';
import { handleOperatorSettings } from '@/lib/server/operator';

export const dynamic = 'force-dynamic';

/**
 * PATCH /api/operator/channels/:key/settings — an operator's API key sets a channel's payment providers and SMS sender
 * (docs/api.md, lib/server/operator.ts).
 */
export async function PATCH(request: Request, { params }: { params: Promise<{ key: string }> }): Promise<Response> {
  return handleOperatorSettings(request, (await params).key, { db: getDb() });
}
