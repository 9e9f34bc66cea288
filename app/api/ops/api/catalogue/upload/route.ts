import { handleCatalogueUpload } from '@/lib/server/catalogue-upload';

/** POST /api/ops/api/catalogue/upload — a collectible's picture from the console's catalogue (lib/server/catalogue-upload.ts). */
export async function POST(request: Request): Promise<Response> {
  return handleCatalogueUpload(request);
}
