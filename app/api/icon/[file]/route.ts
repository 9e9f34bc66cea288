import { brandIconResponse } from '@/lib/brand-icon/serve';
import { getDb } from '@/lib/db/client';
import { readChannel } from '@/lib/channel/service';

/** GET /api/icon/:file — the host's channel's favicon.ico, icon.png or apple-touch-icon.png (lib/brand-icon). */
export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  return brandIconResponse(request, (await params).file, (key) => readChannel(getDb(), key));
}
