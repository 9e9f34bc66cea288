import { handleSkinUpload } from '@/lib/server/skin-upload';

/** POST /api/ops/api/skin/upload — a brand image from the console's skin editor (lib/server/skin-upload.ts). */
export async function POST(request: Request): Promise<Response> {
  return handleSkinUpload(request);
}
