import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { createTestApi, type TestApi } from '@/test/api';
import { OPS_HOST, signedInOperator, type TestOperator } from '@/test/operator-fixtures';
import { picture, pngClaiming, SVG_WITH_SCRIPT, zipOf } from '@/test/images';
import { channels, operatorAudit } from '@/lib/db/schema';
import { parseSkin } from '@/lib/channel/skin';
import { readChannel } from '@/lib/channel/service';
import { FolderMediaStore } from '@/lib/media/store';
import { handleSkinUpload, SKIN_UPLOAD_BODY_LIMIT, SKIN_UPLOAD_HEADER } from '../server/skin-upload';

/**
 * The skin editor's calls (issue 31, "Channels" and "Media storage"): publishing a draft in one audited write that the
 * next page view shows, and brand image uploads that are checked before anything is decoded and never read past 10 MB.
 */

let api: TestApi;
let owner: TestOperator;
let manager: TestOperator;
let support: TestOperator;
let root: string;
let store: FolderMediaStore;

beforeAll(async () => {
  api = await createTestApi();
  const before = new Date(api.now.getTime() - 60_000);
  owner = await signedInOperator(api.db, { name: 'skin.owner', role: 'owner', now: before });
  manager = await signedInOperator(api.db, { name: 'skin.manager', role: 'manager', channels: ['AURORA'], now: before });
  support = await signedInOperator(api.db, { name: 'skin.support', role: 'support', channels: ['AURORA'], now: before });
});
afterAll(() => api.close());

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'skin-upload-'));
  store = new FolderMediaStore(root);
});
afterEach(() => rm(root, { recursive: true, force: true }));

const asOperator = (op: TestOperator) => ({ host: OPS_HOST, headers: { cookie: op.cookie } });

async function auroraSkin() {
  const [row] = await api.db.select({ skinJson: channels.skinJson }).from(channels).where(eq(channels.key, 'AURORA'));
  return parseSkin(row!.skinJson);
}

async function auditOf(procedure: string) {
  return api.db.select().from(operatorAudit).where(eq(operatorAudit.procedure, procedure));
}

describe('/ops/api/skin/publish', () => {
  it("changes only the fields named, records the skin before and after once, and the channel's next read shows it", async () => {
    const before = await auroraSkin();
    // The store's cached read of the channel, as a page view before the change made it.
    expect(parseSkin((await readChannel(api.db, 'AURORA'))!.skinJson).color1).toBe(before.color1);
    const answer = await api.callApi(
      '/ops/api/skin/publish',
      { channel: 'AURORA', skin: { color1: '#0f766e', buttonBgColor: '#134e4a' } },
      asOperator(manager),
    );
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({ skin: { color1: '#0f766e', buttonBgColor: '#134e4a', signColor: before.signColor } });
    const after = await auroraSkin();
    expect(after).toEqual({ ...before, color1: '#0f766e', buttonBgColor: '#134e4a' });
    expect(parseSkin((await readChannel(api.db, 'AURORA'))!.skinJson).color1).toBe('#0f766e');

    const entries = await auditOf('skin/publish');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      operatorName: 'skin.manager',
      channelId: await api.channelId('AURORA'),
      input: { channel: 'AURORA', skin: { color1: '#0f766e', buttonBgColor: '#134e4a' } },
      before: { color1: before.color1, buttonBgColor: before.buttonBgColor },
      after: { color1: '#0f766e', buttonBgColor: '#134e4a' },
    });
  });

  it.each([
    ['a colour that is not one', { color1: 'red; background:url(x)' }, 'skin.color1'],
    ['empty commas as a colour (issue 31)', { color1: 'rgb(,,,,)' }, 'skin.color1'],
    ['a word that names no colour', { signColor: 'notacolour' }, 'skin.signColor'],
    ['five hex digits', { pageBgColor: '#12345' }, 'skin.pageBgColor'],
    ['slashes as an hsl colour', { shadowColor: 'hsl(/ / /)' }, 'skin.shadowColor'],
    ['the text colour, which is no skin colour', { buttonColor: 'currentcolor' }, 'skin.buttonColor'],
    ["another channel's art", { brandImg: '/brands/lumen/brand.svg' }, 'skin.brandImg'],
    ['a host that is not a media host', { shareImg: 'https://evil.example/a.webp' }, 'skin.shareImg'],
    ['a field the skin does not have', { fontFamily: 'Comic Sans' }, 'skin'],
    ['nothing', {}, 'skin'],
  ])('refuses %s by the field, and changes nothing', async (_what, skin, field) => {
    const before = await auroraSkin();
    const answer = await api.callApi('/ops/api/skin/publish', { channel: 'AURORA', skin }, asOperator(owner));
    expect(answer.code).toBe(400);
    expect(answer.message.startsWith(`${field}`)).toBe(true);
    expect(await auroraSkin()).toEqual(before);
  });

  it('keeps the share image and favicon source an owner uploads, which spec §3 has no field for', async () => {
    const url = `/media/${'a'.repeat(64)}.webp`;
    const answer = await api.callApi(
      '/ops/api/skin/publish',
      { channel: 'AURORA', skin: { shareImg: url, faviconImg: url } },
      asOperator(owner),
    );
    expect(answer.code).toBe(200);
    expect(await auroraSkin()).toMatchObject({ shareImg: url, faviconImg: url });
  });

  it('lets support read the skin and not publish it', async () => {
    expect((await api.callApi('/ops/api/skin/get', { channel: 'AURORA' }, asOperator(support))).code).toBe(200);
    const before = await auroraSkin();
    const answer = await api.callApi('/ops/api/skin/publish', { channel: 'AURORA', skin: { color1: '#000000' } }, asOperator(support));
    expect(answer.code).toBe(403);
    expect(await auroraSkin()).toEqual(before);
  });
});

/** A body that is made as it is read, counting what the server pulled: a 50 MB upload that is never in memory whole. */
function countedStream(totalBytes: number, head: Uint8Array = new Uint8Array()) {
  const chunk = 64 * 1024;
  const seen = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled >= totalBytes) return controller.close();
      const part = seen.pulled === 0 && head.byteLength > 0 ? head : new Uint8Array(Math.min(chunk, totalBytes - seen.pulled));
      seen.pulled += part.byteLength;
      controller.enqueue(part);
    },
  });
  return { stream, seen };
}

const BOUNDARY = 'consoleUploadBoundary';

function multipart(bytes: Uint8Array, name = 'logo.png'): Uint8Array {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\ncontent-type: image/png\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

type UploadOptions = { op?: TestOperator | null; field?: string; channel?: string; host?: string; headers?: Record<string, string> };

function uploadRequest(body: BodyInit, options: UploadOptions = {}): Request {
  const op = options.op === undefined ? owner : options.op;
  const headers: Record<string, string> = {
    host: options.host ?? OPS_HOST,
    'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    origin: `http://${options.host ?? OPS_HOST}`,
    'sec-fetch-site': 'same-origin',
    [SKIN_UPLOAD_HEADER]: '1',
    ...(op ? { cookie: op.cookie } : {}),
    ...options.headers,
  };
  const query = new URLSearchParams({ channel: options.channel ?? 'AURORA', field: options.field ?? 'brandImg' });
  return new Request(`http://${OPS_HOST}/api/ops/api/skin/upload?${query}`, {
    method: 'POST',
    headers,
    body,
    duplex: 'half',
  } as RequestInit);
}

async function upload(bytes: Uint8Array, options: UploadOptions = {}) {
  const res = await handleSkinUpload(uploadRequest(new Uint8Array(multipart(bytes)), options), { db: api.db, now: api.now, store });
  return { status: res.status, ...((await res.json()) as { code: number; message: string; data: Record<string, unknown> | null }) };
}

async function storedFiles(): Promise<string[]> {
  return (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
}

describe('/ops/api/skin/upload', () => {
  it('stores a logo as WebP and answers the URL the draft names, without changing the skin, audited', async () => {
    const before = await auroraSkin();
    const answer = await upload(await picture(600, 300));
    expect(answer).toMatchObject({ status: 200, code: 200, data: { field: 'brandImg' } });
    expect(answer.data!.url).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
    expect(await storedFiles()).toContain(String(answer.data!.url).slice('/media/'.length));
    expect(await auroraSkin()).toEqual(before);
    const [entry] = await api.db
      .select()
      .from(operatorAudit)
      .where(and(eq(operatorAudit.procedure, 'skin/upload'), eq(operatorAudit.operatorName, 'skin.owner')));
    expect(entry).toMatchObject({ input: { channel: 'AURORA', field: 'brandImg', purpose: 'logo' }, after: { url: answer.data!.url } });
  });

  it.each([
    ['a PNG that is a ZIP', async () => zipOf('logo.png', await picture(600, 300)), /not a PNG, JPEG, WebP or GIF/],
    ['a 20,000 × 20,000 px image (a decompression bomb)', async () => pngClaiming(20_000, 20_000), /20,?000/],
    ['an SVG with a script', async () => SVG_WITH_SCRIPT, /SVG images are not accepted/],
  ])('refuses %s by the file, storing nothing', async (_what, make, words) => {
    const answer = await upload(await make(), { field: 'bannerImg' });
    expect(answer).toMatchObject({ status: 200, code: 400, data: { field: 'file' } });
    expect(answer.message).toMatch(words);
    expect(await storedFiles()).toEqual([]);
  });

  it('stops reading a 50 MB upload at the limit and answers 413 naming the file', async () => {
    const { stream, seen } = countedStream(50 * 1024 * 1024);
    const res = await handleSkinUpload(uploadRequest(stream), { db: api.db, now: api.now, store });
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toMatchObject({ code: 400, data: { field: 'file' } });
    // Read to the limit and the few chunks a stream's queue pulls ahead, never the 50 MB.
    expect(seen.pulled).toBeLessThanOrEqual(SKIN_UPLOAD_BODY_LIMIT + 4 * 64 * 1024);
    expect(await storedFiles()).toEqual([]);
  });

  it('refuses a declared 50 MB body before reading any of it', async () => {
    const { stream, seen } = countedStream(50 * 1024 * 1024);
    const request = uploadRequest(stream, { headers: { 'content-length': String(50 * 1024 * 1024) } });
    const res = await handleSkinUpload(request, { db: api.db, now: api.now, store });
    expect(res.status).toBe(413);
    expect(seen.pulled).toBeLessThanOrEqual(64 * 1024);
  });

  it.each([
    ['no credentials', { op: null }, 401],
    ['support', { op: 'support' }, 403],
    ['a manager of AURORA, for LUMEN', { op: 'manager', channel: 'LUMEN' }, 404],
    ['a page of another site', { headers: { origin: 'http://aurora.localhost:3000', 'sec-fetch-site': 'same-site' } }, 403],
    ['a form without the console header', { headers: { [SKIN_UPLOAD_HEADER]: '' } }, 403],
    ['an owner on a channel host', { host: 'aurora.localhost:3000' }, 404],
    ['a field that is not a brand image', { field: 'color1' }, 400],
  ] as const)('refuses %s without reading the body', async (_who, options, code) => {
    const { stream, seen } = countedStream(50 * 1024 * 1024);
    const op = 'op' in options ? (options.op === null ? null : options.op === 'support' ? support : manager) : undefined;
    const res = await handleSkinUpload(uploadRequest(stream, { ...options, op } as UploadOptions), { db: api.db, now: api.now, store });
    expect(((await res.json()) as { code: number }).code).toBe(code);
    expect(seen.pulled).toBeLessThanOrEqual(64 * 1024);
    expect(await storedFiles()).toEqual([]);
  });
});
