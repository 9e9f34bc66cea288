import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { parseEnv } from '@/lib/env';
import { picture } from '@/test/images';
import { storeImage } from './image';
import { FolderMediaStore, MEDIA_CACHE_CONTROL, mediaStoreFor, S3MediaStore, type MediaStore } from './store';

const KEY = `${'ab'.repeat(32)}.webp`;
const OTHER = `${'cd'.repeat(32)}.webp`;

/** What a store must do, whichever it is (issue 31: one storage interface). */
function behavesAsAStore(name: string, make: () => MediaStore) {
  describe(`${name}: put, get, delete, url`, () => {
    it('gives back what was put under a key, as WebP; nothing under another key', async () => {
      const store = make();
      await store.put(KEY, Buffer.from('rendition bytes'), 'image/webp');
      expect(await store.get(KEY)).toEqual({ bytes: Buffer.from('rendition bytes'), contentType: 'image/webp' });
      expect(await store.get(OTHER)).toBeNull();
    });

    it('puts the same key twice without harm, and deletes it (deleting a missing key is no error)', async () => {
      const store = make();
      await store.put(KEY, Buffer.from('same'), 'image/webp');
      await store.put(KEY, Buffer.from('same'), 'image/webp');
      await store.delete(KEY);
      expect(await store.get(KEY)).toBeNull();
      await expect(store.delete(KEY)).resolves.toBeUndefined();
    });

    it.each(['../../etc/passwd', `../${KEY}`, `sub/${KEY}`, KEY.toUpperCase(), KEY.replace('.webp', '.svg'), '', `${KEY}\u0000`])(
      'refuses a name that is not a content address: %j',
      async (bad) => {
        const store = make();
        await expect(store.put(bad, Buffer.from('x'), 'image/webp')).rejects.toThrow('is not a media key');
        await expect(store.get(bad)).rejects.toThrow('is not a media key');
        await expect(store.delete(bad)).rejects.toThrow('is not a media key');
        expect(() => store.url(bad)).toThrow('is not a media key');
        expect(store.keyOf(store.url(KEY).replace(KEY, bad))).toBeNull();
      },
    );

    it('reads the key back from the URL it gave, and no key from any other URL', () => {
      const store = make();
      expect(store.keyOf(store.url(KEY))).toBe(KEY);
      expect(store.keyOf(`${store.url(KEY)}?v=1`)).toBeNull();
      expect(store.keyOf(`https://elsewhere.example/${KEY}`)).toBeNull();
      expect(store.keyOf('/brands/aurora/brand.svg')).toBeNull();
    });
  });
}

describe('the folder store (the embedded default: .data/media)', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'media-folder-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  behavesAsAStore('folder', () => new FolderMediaStore(root));

  it('keeps a key in a folder named by its first two hex digits, leaves no partial file, and names it /media/<key>', async () => {
    const store: MediaStore = new FolderMediaStore(root);
    await store.put(KEY, Buffer.from('x'), 'image/webp');
    expect(await readdir(root, { recursive: true })).toEqual(['ab', `ab/${KEY}`]);
    expect(store.url(KEY)).toBe(`/media/${KEY}`);
  });

  it('is what MEDIA_STORAGE names by default, in MEDIA_DIR', () => {
    const store = mediaStoreFor(parseEnv({ MEDIA_DIR: root }));
    expect(store).toBeInstanceOf(FolderMediaStore);
    expect((store as FolderMediaStore).root).toBe(root);
  });
});

describe('the object storage store, against a local S3 server (s3rver on 127.0.0.1)', () => {
  let server: S3rver;
  let directory: string;
  let endpoint: string;
  const stores: S3MediaStore[] = [];

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'media-s3rver-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory,
      configureBuckets: [{ name: 'shop-media', configs: [] }],
    });
    const { port } = (await server.run()) as AddressInfo;
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    for (const store of stores) store.destroy();
    await server.close();
    await rm(directory, { recursive: true, force: true });
  });

  /** A store as production configures one (s3rver's own keys; path style, since its host is an address). */
  function s3Store(): S3MediaStore {
    const store = mediaStoreFor(
      parseEnv({
        MEDIA_STORAGE: 's3',
        MEDIA_S3_ENDPOINT: endpoint,
        MEDIA_S3_BUCKET: 'shop-media',
        MEDIA_S3_REGION: 'us-east-1',
        MEDIA_S3_ACCESS_KEY_ID: 'S3RVER',
        MEDIA_S3_SECRET_ACCESS_KEY: 'S3RVER',
        MEDIA_S3_PATH_STYLE: '1',
        MEDIA_PUBLIC_URL: `${endpoint}/shop-media`,
      }),
    ) as S3MediaStore;
    stores.push(store);
    return store;
  }

  behavesAsAStore('s3', () => s3Store());

  it("stores an upload's renditions in the bucket, read by a browser from the public URL with a year's immutable caching", async () => {
    const store = s3Store();
    const stored = await storeImage(await picture(1300, 700), 'share', store);
    const [rendition] = stored.renditions;
    expect(stored.url).toBe(`${endpoint}/shop-media/${rendition!.key}`);
    const response = await fetch(stored.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toBe(MEDIA_CACHE_CONTROL);
    expect(Buffer.from(await response.arrayBuffer())).toEqual((await store.get(rendition!.key))!.bytes);
  });
});
