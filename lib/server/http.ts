import 'server-only';
import { bodyLimitOf, dispatch } from './dispatcher';
import { clientIp } from './client-ip';

/**
 * Reads a request body up to `limit` bytes and stops there (security review, finding 13): a declared
 * Content-Length over the limit is refused before reading, and a longer stream is cancelled at the limit, so a
 * 100 MB body costs us 64 KiB, not 100 MB. The bytes as they came (the console's image uploads, issue 31).
 */
export async function readBytesWithin(request: Request, limit: number): Promise<Buffer | null> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    await request.body?.cancel().catch(() => {});
    return null;
  }
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** `readBytesWithin` as UTF-8 text (the API's JSON bodies). */
export async function readBodyWithin(request: Request, limit: number): Promise<string | null> {
  return (await readBytesWithin(request, limit))?.toString('utf8') ?? null;
}

/** Runs one API call from a route handler: request → dispatcher → JSON envelope (DESIGN §3). */
export async function handleApiRequest(request: Request, path: string): Promise<Response> {
  const limit = bodyLimitOf(path);
  const body = request.method === 'POST' ? await readBodyWithin(request, limit) : '';
  if (body === null) {
    // The rest of the body is never read: close the connection rather than drain it.
    return Response.json(
      { code: 400, message: `body: must be ${limit} bytes or less`, data: null },
      { status: 413, headers: { 'cache-control': 'no-store', connection: 'close' } },
    );
  }
  const result = await dispatch({
    method: request.method,
    path,
    host: request.headers.get('host') ?? '',
    body,
    headers: request.headers,
    ip: clientIp(request.headers),
  });
  return Response.json(result.body, { status: result.status, headers: { ...result.headers, 'cache-control': 'no-store' } });
}
