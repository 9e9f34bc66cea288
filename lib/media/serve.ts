import 'server-only';
import { isMediaKey } from './key';
import { MEDIA_CACHE_CONTROL, type MediaStore } from './store';

function notFound(): Response {
  return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}

/**
 * GET /media/<key> (issue 31, "Media storage"): a stored image of the folder store, kept by browsers and CDNs for a
 * year without asking again (a key is its content's address, so it never names other bytes). Only the exact key shape
 * is looked up (no other name, no `..`, no encoded slash reaches the store) and only a key that is stored answers 200;
 * anything else is 404. With object storage pages read the bucket's URL, and this path answers 404.
 */
export async function mediaResponse(request: Request, file: string, store: MediaStore | null): Promise<Response> {
  if (!store || !isMediaKey(file)) return notFound();
  // A key is a SHA-256 of the bytes: it is the ETag, so a browser that asks again (a forced reload) gets a 304.
  const etag = `"${file.slice(0, 64)}"`;
  const found = await store.get(file);
  if (!found) return notFound();
  const headers = { 'content-type': found.contentType, 'cache-control': MEDIA_CACHE_CONTROL, etag };
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(found.bytes), {
    status: 200,
    headers: { ...headers, 'content-length': String(found.bytes.byteLength) },
  });
}
