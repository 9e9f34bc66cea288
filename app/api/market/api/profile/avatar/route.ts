import { handleAvatarUpload } from '@/lib/server/avatar-upload';

/** POST /api/market/api/profile/avatar — the buyer's own photo as their avatar (lib/server/avatar-upload.ts). */
export async function POST(request: Request): Promise<Response> {
  return handleAvatarUpload(request);
}
