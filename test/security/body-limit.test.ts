import { readBodyWithin, handleApiRequest } from '@/lib/server/http';
import { MAX_BODY_BYTES } from '@/lib/server/dispatcher';

// Security review, finding 13: bodies were read whole before the 64 KiB limit (100 MB bodies were read, then refused).

/** A body that never ends, counting how much of it was pulled. */
function endlessBody(chunkBytes = 16 * 1024) {
  const stats = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      stats.pulled += chunkBytes;
      controller.enqueue(new Uint8Array(chunkBytes).fill(0x20));
    },
    cancel() {
      stats.cancelled = true;
    },
  });
  return { stream, stats };
}

const post = (body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}) =>
  new Request('http://aurora.localhost/api/market/api/channel/detail', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
    duplex: 'half',
  } as RequestInit);

describe('request bodies (finding 13)', () => {
  it('stops reading an endless body at the limit and cancels it', async () => {
    const { stream, stats } = endlessBody();
    expect(await readBodyWithin(post(stream), MAX_BODY_BYTES)).toBeNull();
    expect(stats.pulled).toBeLessThanOrEqual(MAX_BODY_BYTES + 2 * 16 * 1024);
    expect(stats.cancelled).toBe(true);
  });

  it('refuses a declared Content-Length over the limit without reading', async () => {
    const { stream, stats } = endlessBody();
    expect(await readBodyWithin(post(stream, { 'content-length': String(100 * 1024 * 1024) }), MAX_BODY_BYTES)).toBeNull();
    expect(stats.pulled).toBeLessThanOrEqual(16 * 1024);
  });

  it('answers the API caller 413 with the reason, and closes the connection', async () => {
    const { stream } = endlessBody();
    const res = await handleApiRequest(post(stream), '/market/api/channel/detail');
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({ code: 400, message: `body: must be ${MAX_BODY_BYTES} bytes or less`, data: null });
  });

  it('reads a body within the limit whole, multi-byte characters included', async () => {
    const text = JSON.stringify({ key: '极光'.repeat(1000) });
    expect(await readBodyWithin(post(text), MAX_BODY_BYTES)).toBe(text);
  });
});
