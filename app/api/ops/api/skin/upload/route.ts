import { handleSkinUpload } from '@/lib/operator/skin-upload';

/** POST /api/ops/api/skin/upload — a brand image from the console's skin editor (lib/operator/skin-upload.ts). */
export async function POST(request: Request): Promise<Response> {
  return handleSkinUpload(request);
}
