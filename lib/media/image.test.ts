import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { AppError } from '@/lib/procedure/errors';
import { picture, pngClaiming, SVG_WITH_SCRIPT, zipOf } from '@/test/images';
import { DecodeLane, MAX_IMAGE_BYTES, sniffImageKind, storeImage, type DecodeTurns } from './image';
import { FolderMediaStore } from './store';

let root: string;
let store: FolderMediaStore;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'media-image-'));
  store = new FolderMediaStore(root);
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** Every file the store holds (nothing may be left by a refused upload). */
async function storedFiles(): Promise<string[]> {
  return (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
}

/** The refusal an upload gets: status, field and the words in both languages. */
async function refusal(bytes: Uint8Array, purpose = 'banner') {
  const error = await storeImage(bytes, purpose, store).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { code: error.code, field: error.data?.field, en: error.messageIn('en'), zh: error.messageIn('zh-CN') };
}

describe('storeImage: what an operator uploads is stored as WebP at the sizes pages show (issue 31)', () => {
  it('re-encodes a PNG banner as WebP at 750 × 360 and 1,350 × 648, each under the SHA-256 of its bytes', async () => {
    const stored = await storeImage(await picture(1600, 900), 'banner', store);
    expect(stored.source).toMatchObject({ kind: 'png', width: 1600, height: 900 });
    expect(stored.renditions.map((r) => [r.width, r.height])).toEqual([
      [750, 360],
      [1350, 648],
    ]);
    for (const rendition of stored.renditions) {
      const object = await store.get(rendition.key);
      expect(object?.contentType).toBe('image/webp');
      expect(sniffImageKind(object!.bytes)).toBe('webp');
      expect(await sharp(object!.bytes).metadata()).toMatchObject({ format: 'webp', width: rendition.width, height: rendition.height });
      expect(rendition.key).toBe(`${createHash('sha256').update(object!.bytes).digest('hex')}.webp`);
      expect(rendition.url).toBe(`/media/${rendition.key}`);
    }
    expect(stored.url).toBe(stored.renditions[1]!.url);
    expect((await storedFiles()).sort()).toEqual(stored.renditions.map((r) => r.key).sort());
  });

  it('stores the same upload under the same keys (content addresses: nothing twice)', async () => {
    const bytes = await picture(1300, 700);
    const first = await storeImage(bytes, 'share', store);
    const second = await storeImage(bytes, 'share', store);
    expect(second.renditions).toEqual(first.renditions);
    expect(await storedFiles()).toHaveLength(1);
  });

  it('takes JPEG, WebP and GIF by their bytes; a logo keeps its whole shape in a 3:1 box on a transparent ground', async () => {
    for (const format of ['jpeg', 'webp', 'gif'] as const) {
      const stored = await storeImage(await picture(600, 600, format), 'logo', store);
      expect([format, stored.source.kind, stored.renditions.map((r) => `${r.width}x${r.height}`)]).toEqual([
        format,
        format,
        ['240x80', '480x160'],
      ]);
    }
    const logo = await store.get((await storeImage(await picture(600, 600, 'png'), 'logo', store)).renditions[0]!.key);
    const { data, info } = await sharp(logo!.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    // The padding at the left edge is transparent, the square in the middle is not: fitted, not cropped or stretched.
    expect(data[(40 * info.width + 2) * 4 + 3]).toBe(0);
    expect(data[(40 * info.width + 120) * 4 + 3]).toBe(255);
  });

  it("strips the upload's metadata: no EXIF (camera, place, author), no XMP, no ICC profile", async () => {
    const jpeg = await sharp(await picture(1400, 800, 'jpeg'))
      .withExif({
        IFD0: { Copyright: 'Secret Studio 2026', Artist: 'Jane Roe', Make: 'PhoneCam' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '31/1 13/1 0/1' },
      })
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>')
      .jpeg()
      .toBuffer();
    const before = await sharp(jpeg).metadata();
    expect(before.exif).toBeDefined();
    expect(before.xmp).toBeDefined();

    const stored = await storeImage(jpeg, 'share', store);
    const bytes = (await store.get(stored.renditions[0]!.key))!.bytes;
    const after = await sharp(bytes).metadata();
    expect({ exif: after.exif, xmp: after.xmp, icc: after.icc, iptc: after.iptc }).toEqual({
      exif: undefined,
      xmp: undefined,
      icc: undefined,
      iptc: undefined,
    });
    expect(bytes.includes('Secret Studio')).toBe(false);
    expect(bytes.includes('Jane Roe')).toBe(false);
  });

  it('turns a photo upright by its EXIF orientation before sizing it (a phone photo taken sideways)', async () => {
    // 700 × 1,400 px stored, to be shown turned a quarter (orientation 6): upright it is 1,400 × 700, wide enough.
    const sideways = await sharp(await picture(700, 1400, 'jpeg'))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const stored = await storeImage(sideways, 'banner', store);
    expect(stored.source).toMatchObject({ width: 1400, height: 700 });
    expect(stored.renditions.map((r) => [r.width, r.height])).toEqual([
      [750, 360],
      [1350, 648],
    ]);
  });
});

describe('storeImage: bad uploads are refused with the field and why, and nothing is stored (issue 31)', () => {
  it('refuses a ZIP renamed .png: the bytes say what it is, not the name', async () => {
    const zip = zipOf('logo.png', await picture(800, 400));
    expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    expect(await refusal(zip)).toEqual({
      code: 400,
      field: 'file',
      en: 'This file is not a PNG, JPEG, WebP or GIF image, whatever its name says. Please upload one of those.',
      zh: '这个文件不是 PNG、JPEG、WebP 或 GIF 图片（按文件内容判断，与文件名无关），请上传这几种图片之一',
    });
    expect(await storedFiles()).toEqual([]);
  });

  it('refuses a 50 MB upload before reading it as an image', async () => {
    const big = Buffer.alloc(50 * 1024 * 1024);
    (await picture(800, 400)).copy(big); // a real PNG at the front: the size alone refuses it
    expect(big.byteLength).toBeGreaterThan(MAX_IMAGE_BYTES);
    expect(await refusal(big)).toEqual({
      code: 400,
      field: 'file',
      en: 'The file is larger than 10 MB, the most an image may be. Please upload a smaller one.',
      zh: '文件超过 10MB，图片最大为 10MB，请上传更小的文件',
    });
    expect(await storedFiles()).toEqual([]);
  });

  it('refuses a 20,000 × 20,000 px PNG by its header, before decoding a pixel (a decompression bomb)', async () => {
    const bomb = pngClaiming(20_000, 20_000);
    expect(bomb.byteLength).toBeLessThan(1000);
    // Its pixel data is only the first rows: had it been decoded, the refusal would be that it cannot be read.
    expect(await refusal(bomb)).toEqual({
      code: 400,
      field: 'file',
      en: 'The image is 20,000 × 20,000 px; an image may be at most 8,000 px on each side. Please upload a smaller one.',
      zh: '图片为 20,000 × 20,000 像素，每边最多 8,000 像素，请上传更小的图片',
    });
    expect((await refusal(pngClaiming(8001, 600))).field).toBe('file');
    expect(await storedFiles()).toEqual([]);
  });

  it('refuses an SVG (it can carry scripts), with or without an XML declaration, a byte-order mark or blanks first', async () => {
    for (const svg of [SVG_WITH_SCRIPT, Buffer.from(`\uFEFF  \n${SVG_WITH_SCRIPT.toString('utf8').replace(/^<\?xml[^>]*>\n/, '')}`)]) {
      expect(await refusal(svg)).toEqual({
        code: 400,
        field: 'file',
        en: 'SVG images are not accepted, because they can carry scripts. Please upload a PNG, JPEG, WebP or GIF image.',
        zh: '不接受 SVG 图片，因为它可以携带脚本，请上传 PNG、JPEG、WebP 或 GIF 图片',
      });
    }
    expect(await storedFiles()).toEqual([]);
  });

  it('refuses an image smaller than the smallest size its purpose is shown at, saying both sizes', async () => {
    expect(await refusal(await picture(700, 400))).toEqual({
      code: 400,
      field: 'file',
      en: 'A banner must be at least 750 × 360 px; this one is 700 × 400 px.',
      zh: '横幅至少需要750 × 360 像素，这张图片为 700 × 400 像素',
    });
    expect((await refusal(await picture(200, 60), 'logo')).en).toBe(
      'A logo must be at least 240 px wide or 80 px high; this one is 200 × 60 px.',
    );
    expect(await storedFiles()).toEqual([]);
  });

  it('refuses a damaged image, an empty file and an unknown purpose', async () => {
    const png = await picture(1600, 900);
    expect((await refusal(png.subarray(0, png.length / 2))).en).toBe(
      'The image could not be read: it is damaged, or not the kind of image its first bytes say. Please export it again and upload it.',
    );
    // PNG's signature in front of a JPEG: the header is not what the first bytes say.
    const jpeg = await picture(1600, 900, 'jpeg');
    expect((await refusal(Buffer.concat([png.subarray(0, 8), jpeg]))).en).toMatch(/^The image could not be read/);
    expect(await refusal(Buffer.alloc(0))).toMatchObject({ field: 'file', en: 'The file is empty. Please choose an image.' });
    expect(await refusal(png, 'wallpaper')).toMatchObject({
      code: 400,
      field: 'purpose',
      en: 'Please choose what the image is for: a logo, a banner, a share image or a favicon source.',
    });
    expect(await storedFiles()).toEqual([]);
  });
});

describe('storeImage: the decodes of a process take turns (issue 31)', () => {
  /** A lane of `limit` at once whose turns are written down, the first held until `releaseFirst` is called. */
  function watchedLane(limit: number, maxWaiting: number) {
    const lane = new DecodeLane(limit, maxWaiting);
    const turns: string[] = [];
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let first = true;
    const watched: DecodeTurns = {
      run: (work) =>
        lane.run(async () => {
          turns.push('start');
          if (first) {
            first = false;
            await firstHeld;
          }
          try {
            return await work();
          } finally {
            turns.push('end');
          }
        }),
    };
    return { lane, watched, turns, releaseFirst };
  }

  it('with the limit at 1, a second upload waits for the first to be stored, then is stored too', async () => {
    const { lane, watched, turns, releaseFirst } = watchedLane(1, 8);
    const first = storeImage(await picture(1600, 900), 'banner', store, watched);
    const second = storeImage(await picture(1500, 800), 'banner', store, watched);
    await lane.whenWaiting(1); // one upload holds the only turn, the other waits for it
    expect(turns).toEqual(['start']);
    expect(await storedFiles()).toEqual([]);
    releaseFirst();
    const stored = await Promise.all([first, second]);
    expect(turns).toEqual(['start', 'end', 'start', 'end']);
    expect(stored.map((s) => s.source.width)).toEqual([1600, 1500]);
    expect(await storedFiles()).toHaveLength(4);
  });

  it('answers busy (code 1001, in both languages) once too many uploads wait, and stores the waiting one after', async () => {
    const { lane, watched, releaseFirst } = watchedLane(1, 1);
    const holding = storeImage(await picture(1600, 900), 'banner', store, watched);
    const waiting = storeImage(await picture(1500, 800), 'banner', store, watched);
    await lane.whenWaiting(1);
    const busy = await storeImage(await picture(1400, 700), 'banner', store, watched).then(
      () => null,
      (e: unknown) => e,
    );
    expect(busy).toBeInstanceOf(AppError);
    const error = busy as AppError;
    expect({ code: error.code, field: error.data?.field }).toEqual({ code: 1001, field: 'file' });
    expect(error.messageIn('en')).toMatch(/upload this one again in a moment/);
    expect(error.messageIn('zh-CN')).toMatch(/稍后重新上传/);
    releaseFirst();
    expect((await Promise.all([holding, waiting])).map((s) => s.source.width)).toEqual([1600, 1500]);
  });

  it('gives the turns in the order the uploads came', async () => {
    const lane = new DecodeLane(1, 8);
    let release!: () => void;
    const held = lane.run(() => new Promise<void>((resolve) => (release = resolve)));
    const order: number[] = [];
    const waiting = [1, 2, 3].map((n) => lane.run(async () => void order.push(n)));
    await lane.whenWaiting(3);
    expect(order).toEqual([]);
    release();
    await Promise.all([held, ...waiting]);
    expect(order).toEqual([1, 2, 3]);
    // Every turn was given back: the next decode runs at once.
    expect(lane.waiting).toBe(0);
    await expect(lane.run(async () => 'ran')).resolves.toBe('ran');
  });
});
