import 'server-only';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { env, type Env } from '../env';
import { isMediaKey, MEDIA_PATH_PREFIX, mediaContentType } from './key';

/**
 * Where uploaded images live (issue 31, "Media storage"): one interface, two places. The embedded default keeps them in
 * a folder under .data/ and the storefront serves them at /media/<key>; production keeps them in S3-compatible object
 * storage (Amazon S3, Alibaba Cloud OSS, Tencent COS) and pages read them from the bucket's public URL (docs/deploy.md,
 * "Object storage"). Keys are content addresses (./key.ts): every method refuses any other shape, so no caller can
 * make a store read or write outside its folder or bucket.
 */
export interface MediaStore {
  /** Stores bytes under a key; storing the same key again is harmless (the same content, by its address). */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The bytes and content type under a key, or null when there are none. */
  get(key: string): Promise<{ bytes: Buffer; contentType: string } | null>;
  delete(key: string): Promise<void>;
  /** The URL a page names the key by: a site path of this storefront, or a URL on the bucket's public origin. */
  url(key: string): string;
  /** The key a URL of this store names (what `url` made), or null for any other URL. */
  keyOf(url: string): string | null;
}

/** How long browsers and CDNs keep a stored image: a year, never revalidated, since a key never names other bytes. */
export const MEDIA_CACHE_CONTROL = 'public, max-age=31536000, immutable';

function checkedKey(key: string): string {
  if (!isMediaKey(key)) throw new Error(`media: "${key}" is not a media key (<sha-256 hex>.webp)`);
  return key;
}

/** The key in `url` right after `prefix`, when what follows is a key and nothing else. */
function keyAfter(url: string, prefix: string): string | null {
  if (!url.startsWith(prefix)) return null;
  const key = url.slice(prefix.length);
  return isMediaKey(key) ? key : null;
}

/** The folder store: `<root>/<first two hex digits>/<key>`, so no folder holds more than a 256th of the images. */
export class FolderMediaStore implements MediaStore {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private file(key: string): string {
    const checked = checkedKey(key);
    return path.join(this.root, checked.slice(0, 2), checked);
  }

  /** The content type is the key's (its extension): the folder keeps only the bytes. */
  async put(key: string, bytes: Uint8Array): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Written beside and renamed into place: a reader (or a second server) never sees half a file under a key.
    const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
    try {
      await writeFile(partial, bytes);
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    try {
      return { bytes: await readFile(this.file(key)), contentType: mediaContentType(key) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  url(key: string): string {
    return `${MEDIA_PATH_PREFIX}${checkedKey(key)}`;
  }

  keyOf(url: string): string | null {
    return keyAfter(url, MEDIA_PATH_PREFIX);
  }
}

export type S3MediaStoreOptions = {
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The service's API origin (OSS: https://oss-cn-hangzhou.aliyuncs.com; COS: https://cos.ap-guangzhou.myqcloud.com); Amazon's own when unset. */
  endpoint?: string;
  /** Bucket in the path rather than the host name (a local test server; OSS and COS want the host name). */
  pathStyle?: boolean;
  /** Where pages read the objects: the bucket's public URL or a CDN in front of it, ending in `/`; the key is appended. */
  publicUrl: string;
};

/** The object-storage store, through the S3 API that Amazon S3, Alibaba Cloud OSS and Tencent COS all speak. */
export class S3MediaStore implements MediaStore {
  private readonly client: S3Client;

  constructor(private readonly options: S3MediaStoreOptions) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.pathStyle ?? false,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // OSS and COS take the plain S3 signature of a PUT: no checksum headers newer SDKs add by default.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: checkedKey(key),
        Body: bytes,
        ContentType: contentType,
        // The bucket (or its CDN) answers readers itself, with these headers.
        CacheControl: MEDIA_CACHE_CONTROL,
      }),
    );
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: checkedKey(key) }));
      const bytes = Buffer.from((await object.Body?.transformToByteArray()) ?? []);
      return { bytes, contentType: object.ContentType ?? mediaContentType(key) };
    } catch (error) {
      if ((error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: checkedKey(key) }));
  }

  url(key: string): string {
    return `${this.options.publicUrl}${checkedKey(key)}`;
  }

  keyOf(url: string): string | null {
    return keyAfter(url, this.options.publicUrl);
  }

  /** Closes the client's connections (a test's server can then stop). */
  destroy(): void {
    this.client.destroy();
  }
}

/** The store an environment names (MEDIA_STORAGE; lib/env.ts checks at start that `s3` has everything it needs). */
export function mediaStoreFor(e: Env): MediaStore {
  if (e.MEDIA_STORAGE === 's3') {
    return new S3MediaStore({
      bucket: e.MEDIA_S3_BUCKET!,
      region: e.MEDIA_S3_REGION!,
      accessKeyId: e.MEDIA_S3_ACCESS_KEY_ID!,
      secretAccessKey: e.MEDIA_S3_SECRET_ACCESS_KEY!,
      endpoint: e.MEDIA_S3_ENDPOINT,
      pathStyle: e.MEDIA_S3_PATH_STYLE === '1',
      publicUrl: e.MEDIA_PUBLIC_URL!,
    });
  }
  return new FolderMediaStore(e.MEDIA_DIR);
}

let cached: MediaStore | undefined;

/** This process's store, made on first use. */
export function mediaStore(): MediaStore {
  cached ??= mediaStoreFor(env());
  return cached;
}
