import { env } from '@/lib/env';
import { mediaResponse } from '@/lib/media/serve';
import { mediaStore } from '@/lib/media/store';

/** GET /media/:key — an uploaded image of the folder store (lib/media/serve.ts); 404 with object storage. */
export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  return mediaResponse(request, (await params).file, env().MEDIA_STORAGE === 'folder' ? mediaStore() : null);
}
