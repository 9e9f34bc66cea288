import { openApiDocument } from '@/lib/server/openapi';

/** GET /api/openapi.json — the market API's OpenAPI document. */
export function GET(): Response {
  return Response.json(openApiDocument(), { headers: { 'cache-control': 'public, max-age=300' } });
}
