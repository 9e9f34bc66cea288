import { brandIconResponse } from '@/lib/brand-icon/serve';

/** GET /api/icon/:file — the host's channel's favicon.ico, icon.png or apple-touch-icon.png (lib/brand-icon). */
export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  return brandIconResponse(request, (await params).file);
}
