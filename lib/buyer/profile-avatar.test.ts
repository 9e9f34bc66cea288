import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createTestApi, type TestApi } from '@/test/api';
import { FolderMediaStore } from '@/lib/media/store';
import { AVATAR_UPLOAD_HEADER, AVATAR_UPLOAD_PATH, handleAvatarUpload } from '../server/avatar-upload';
import { AVATAR_MAX_BYTES, AVATAR_SIZE, AVATAR_UPLOADS_PER_HOUR } from './profile-avatar';
import { PRESET_AVATARS } from './avatars';

// issue 36: a buyer's own photo as their avatar (docs/profile.md, "Avatar"). Runs on PGlite, and on PostgreSQL under
// scripts/with-postgres.sh.

let api: TestApi;
let root: string;
let store: FolderMediaStore;
beforeAll(async () => {
  api = await createTestApi({ now: new Date('2026-11-28T09:00:00Z') });
  root = await mkdtemp(path.join(tmpdir(), 'avatar-upload-'));
  store = new FolderMediaStore(root);
});
afterAll(async () => {
  await api.close();
  await rm(root, { recursive: true, force: true });
});

let phoneSeq = 0;
const freshPhone = () => `1390037${String(++phoneSeq).padStart(4, '0')}`;

/** A photo as a phone would send it: 600 × 400, with a camera's EXIF (its maker and an orientation). */
async function photo(format: 'png' | 'jpeg' | 'webp' = 'png', width = 600, height = 400): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .withMetadata({ exif: { IFD0: { Make: 'SecretPhoneMaker', Copyright: 'Jane Buyer' } } })
    [format]()
    .toBuffer();
}

type Sent = { status: number; code: number; message: string; data: Record<string, unknown> | null };

async function upload(
  body: Uint8Array | string,
  auth: { token?: string; cookie?: string },
  extra: Record<string, string> = {},
  now: Date = api.now,
): Promise<Sent> {
  const headers: Record<string, string> = { host: 'aurora.localhost:3000', [AVATAR_UPLOAD_HEADER]: '1', ...extra };
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  if (auth.cookie) headers.cookie = auth.cookie;
  const request = new Request(`http://aurora.localhost:3000${AVATAR_UPLOAD_PATH}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  const response = await handleAvatarUpload(request, { db: api.db, now, store });
  const json = (await response.json()) as Omit<Sent, 'status'>;
  return { status: response.status, ...json };
}

async function mineAvatar(token: string): Promise<unknown> {
  const answer = await api.callApi('/market/api/profile/read', {}, { token });
  expect(answer.body.code).toBe(200);
  return (answer.data as { avatar: string | null }).avatar;
}

describe('uploading an avatar', () => {
  it('stores a PNG as a 256 px square WebP with none of its metadata, and makes it the avatar at once', async () => {
    const a = await api.buyer(freshPhone());
    const sent = await upload(await photo('png'), { token: a.token });
    expect(sent.code).toBe(200);
    const avatar = sent.data!.avatar as string;
    expect(avatar).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
    expect(await mineAvatar(a.token)).toBe(avatar);

    const stored = (await store.get(store.keyOf(avatar)!))!.bytes;
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: AVATAR_SIZE, height: AVATAR_SIZE });
    expect(meta.exif).toBeUndefined();
    expect(stored.includes(Buffer.from('SecretPhoneMaker'))).toBe(false);

    // Saving the profile again with the photo keeps it; a preset then replaces it.
    const kept = await api.callApi('/market/api/profile/update', { nickname: 'Photo Fan', avatar }, { token: a.token });
    expect(kept.body.code).toBe(200);
    expect(await mineAvatar(a.token)).toBe(avatar);
    const preset = await api.callApi('/market/api/profile/update', { avatar: PRESET_AVATARS[1] }, { token: a.token });
    expect(preset.body.code).toBe(200);
    expect(await mineAvatar(a.token)).toBe(PRESET_AVATARS[1]);
  });

  it('takes a JPEG and a WebP too', async () => {
    const a = await api.buyer(freshPhone());
    for (const format of ['jpeg', 'webp'] as const) {
      const sent = await upload(await photo(format, 300, 900), { token: a.token });
      expect(sent.code).toBe(200);
      expect(sent.data!.avatar).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
    }
  });

  it('refuses a text file, an SVG and a GIF naming avatar, in both languages, and keeps the avatar', async () => {
    const a = await api.buyer(freshPhone());
    const text = await upload('hello, this is not a picture', { token: a.token });
    expect(text).toMatchObject({ code: 400, data: { field: 'avatar' } });
    expect(text.message).toBe('A photo must be a PNG, JPEG or WebP picture: this file is not one.');
    const svg = await upload(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      { token: a.token },
      {
        'accept-language': 'zh-CN',
      },
    );
    expect(svg).toMatchObject({ code: 400, data: { field: 'avatar' } });
    expect(svg.message).toBe('照片须为 PNG、JPEG 或 WebP 格式，此文件格式不符');
    const gif = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#fff' } })
      .gif()
      .toBuffer();
    expect(await upload(gif, { token: a.token })).toMatchObject({ code: 400, data: { field: 'avatar' } });
    // A PNG's first bytes and nothing a decoder can read.
    const broken = Buffer.concat([(await photo('png')).subarray(0, 40), Buffer.alloc(200, 7)]);
    const unreadable = await upload(broken, { token: a.token });
    expect(unreadable).toMatchObject({ code: 400, data: { field: 'avatar' } });
    expect(unreadable.message).toBe('This photo could not be read: it may be damaged. Choose another one.');
    expect(await upload(new Uint8Array(0), { token: a.token })).toMatchObject({ code: 400, data: { field: 'avatar' } });
    expect(await mineAvatar(a.token)).toBeNull();
  });

  it('refuses a photo over 2 MB before reading it all (413, naming avatar)', async () => {
    const a = await api.buyer(freshPhone());
    const big = Buffer.concat([await photo('png'), Buffer.alloc(AVATAR_MAX_BYTES, 1)]);
    const sent = await upload(big, { token: a.token });
    expect(sent.status).toBe(413);
    expect(sent).toMatchObject({ code: 400, data: { field: 'avatar' } });
    expect(sent.message).toBe('A photo may weigh at most 2 MB: choose a smaller one.');
    expect(await mineAvatar(a.token)).toBeNull();
  });

  it('asks for a login, and refuses the cookie without the store page’s header or from another site', async () => {
    expect(await upload(await photo(), {})).toMatchObject({ code: 401 });
    const noHeader = await upload(await photo(), { cookie: 'next-auth.session-token=anything' }, { [AVATAR_UPLOAD_HEADER]: '' });
    expect(noHeader.code).toBe(403);
    expect(noHeader.message).toContain(AVATAR_UPLOAD_HEADER);
    const crossSite = await upload(await photo(), { cookie: 'next-auth.session-token=anything' }, { 'sec-fetch-site': 'same-site' });
    expect(crossSite.code).toBe(403);
    const otherOrigin = await upload(await photo(), { cookie: 'next-auth.session-token=anything' }, { origin: 'https://evil.localhost' });
    expect(otherOrigin.code).toBe(403);
  });

  it('never lets a buyer name another buyer’s photo, or any other URL, as their avatar', async () => {
    const a = await api.buyer(freshPhone());
    const b = await api.buyer(freshPhone());
    const theirs = (await upload(await photo('png', 500, 500), { token: a.token })).data!.avatar as string;
    const taken = await api.callApi('/market/api/profile/update', { avatar: theirs }, { token: b.token });
    expect(taken.body.code).toBe(400);
    expect(taken.body.data).toMatchObject({ field: 'avatar' });
    expect(taken.message).toBe('Pick one of the avatars offered, or upload a photo of your own.');
    const elsewhere = await api.callApi('/market/api/profile/update', { avatar: `/media/${'0'.repeat(64)}.webp` }, { token: b.token });
    expect(elsewhere.body.code).toBe(400);
    expect(await mineAvatar(b.token)).toBeNull();
    // Once a buyer has left their photo, it is no longer theirs to name back: they upload it again.
    await api.callApi('/market/api/profile/update', { avatar: null }, { token: a.token });
    expect((await api.callApi('/market/api/profile/update', { avatar: theirs }, { token: a.token })).body.code).toBe(400);
  });

  it(`allows ${AVATAR_UPLOADS_PER_HOUR} uploads an hour per buyer, then says when to try again`, async () => {
    const a = await api.buyer(freshPhone());
    const b = await api.buyer(freshPhone());
    const png = await photo('png', 300, 300);
    // A refused file does not count.
    expect((await upload('not a picture', { token: a.token })).code).toBe(400);
    for (let i = 0; i < AVATAR_UPLOADS_PER_HOUR; i++) expect((await upload(png, { token: a.token })).code).toBe(200);
    const refused = await upload(png, { token: a.token });
    expect(refused).toMatchObject({ code: 429, data: { field: 'avatar' } });
    expect(refused.message).toMatch(/^You have uploaded many photos: please try again in \d+ minutes?\.$/);
    // Another buyer is not held up, and the next hour the buyer may again.
    expect((await upload(png, { token: b.token })).code).toBe(200);
    const nextHour = new Date(api.now.getTime() + 60 * 60 * 1000);
    expect((await upload(png, { token: a.token }, {}, nextHour)).code).toBe(200);
  });
});
