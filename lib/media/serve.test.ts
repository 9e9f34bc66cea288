import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { picture } from '@/test/images';
import { GET } from '@/app/media/[file]/route';
import { storeImage, type StoredImage } from './image';
import { mediaResponse } from './serve';
import { FolderMediaStore } from './store';

let root: string;
let stored: StoredImage;
const savedDir = process.env.MEDIA_DIR;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'media-serve-'));
  // The route's store is this process's (lib/env.ts, read on first use): the folder of this test.
  process.env.MEDIA_DIR = root;
  stored = await storeImage(await picture(1300, 700), 'share', new FolderMediaStore(root));
});
afterAll(async () => {
  if (savedDir === undefined) delete process.env.MEDIA_DIR;
  else process.env.MEDIA_DIR = savedDir;
  await rm(root, { recursive: true, force: true });
});

/** GET /media/<file> as the route answers it (the path's segment as Next passes it: decoded once). */
function get(file: string, headers: Record<string, string> = {}): Promise<Response> {
  return GET(new Request(`http://aurora.localhost:3000/media/${encodeURIComponent(file)}`, { headers }), {
    params: Promise.resolve({ file }),
  });
}

describe('GET /media/<key>: uploaded images of the folder store (issue 31)', () => {
  it("answers a stored image as WebP, kept a year and never revalidated (its key is its content's address)", async () => {
    const { key } = stored.renditions[0]!;
    const response = await get(key);
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'image/webp',
      'cache-control': 'public, max-age=31536000, immutable',
      etag: `"${key.slice(0, 64)}"`,
    });
    const body = Buffer.from(await response.arrayBuffer());
    expect(body).toEqual((await new FolderMediaStore(root).get(key))!.bytes);
    expect(response.headers.get('content-length')).toBe(String(body.byteLength));
  });

  it('answers 304 to a browser that already has it', async () => {
    const { key } = stored.renditions[0]!;
    const response = await get(key, { 'if-none-match': `"${key.slice(0, 64)}"` });
    expect(response.status).toBe(304);
    expect(await response.text()).toBe('');
  });

  it.each([
    ['a key that is not stored', () => `${'0'.repeat(64)}.webp`],
    ['a way out of the folder', () => '../../package.json'],
    ['an encoded way out', () => '..%2F..%2Fpackage.json'],
    ['a stored key spelt in upper case', (key: string) => key.toUpperCase()],
    ['a stored key with another extension', (key: string) => key.replace('.webp', '.svg')],
    ['a stored key through its shard folder', (key: string) => `${key.slice(0, 2)}/${key}`],
    ['a file beside the store', () => '.env'],
  ])('answers 404 to %s, with nothing of the store', async (_, name) => {
    const response = await get(name(stored.renditions[0]!.key));
    expect(response.status).toBe(404);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toBe('not found');
  });

  it('answers 404 when the deployment keeps images in object storage (pages read them from the bucket)', async () => {
    const response = await mediaResponse(new Request('http://aurora.localhost/media/x'), stored.renditions[0]!.key, null);
    expect(response.status).toBe(404);
  });
});
