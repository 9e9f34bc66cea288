import { getDb } from '@/lib/db/client';
import { env } from '@/lib/env';
import { handleOperatorSkin } from '@/lib/server/operator';

export const dynamic = 'force-dynamic';

/** PATCH /api/operator/channels/:key/skin — an operator's API key changes a channel's skin (docs/api.md, lib/server/operator.ts). */
export async function PATCH(request: Request, { params }: { params: Promise<{ key: string }> }): Promise<Response> {
  const e = env();
  return handleOperatorSkin(request, (await params).key, { db: getDb(), mediaOrigins: e.MEDIA_ORIGINS });
}
