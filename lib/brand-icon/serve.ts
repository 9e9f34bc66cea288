import 'server-only';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { domainSettings, routeHostOrKeyRule } from '../channel/domains';
import { getDb } from '../db/client';
import { findChannelByKey } from '../channel/service';
import { parseSkin } from '../channel/skin';
import type { ChannelRow } from '../db/schema';
import { env } from '../env';
import { icoFromPngs } from './ico';
import { ICON_FILES, iconSource, iconSourceKey, isIconFile, type IconFile, type IconSource } from './links';
import { markSquare, renderMarkIcon, renderMonogramIcon, type IconStyle } from './render';
import { readIconImage } from './source';
import { mediaStore, type MediaStore } from '../media/store';

const STYLES: Record<IconFile, IconStyle | ((s: IconSource) => IconStyle)> = {
  'favicon.ico': { background: null, padding: 0 },
  'icon.png': { background: null, padding: 0 },
  'apple-touch-icon.png': (s) => ({ background: s.pageBgColor, padding: 0.14 }),
};

/** Draws one icon file of a channel: its brand image's mark, else a monogram. */
export async function drawIcon(file: IconFile, source: IconSource, store: MediaStore = mediaStore()): Promise<Buffer> {
  const styleOf = STYLES[file];
  const style = typeof styleOf === 'function' ? styleOf(source) : styleOf;
  const image = await readIconImage(source.image, store);
  const mark = image ? await markSquare(image).catch(() => null) : null;
  const draw = async (size: number) => {
    if (image && mark) {
      try {
        return await renderMarkIcon(image, mark, size, style);
      } catch {
        // An image the renderer cannot draw: the monogram below.
      }
    }
    return renderMonogramIcon(source.brandName, { background: source.color1, text: source.buttonColor }, size);
  };
  const sizes = ICON_FILES[file].sizes;
  if (file === 'favicon.ico') return icoFromPngs(await Promise.all(sizes.map(async (size) => ({ size, png: await draw(size) }))));
  return draw(sizes[0]);
}

// Drawn icons by file and source (a few kB each); the promise, so concurrent first requests draw once.
const drawn = new LRUCache<string, Promise<{ body: Buffer; etag: string }>>({ max: 500 });

async function cachedIcon(file: IconFile, source: IconSource, store: MediaStore): Promise<{ body: Buffer; etag: string }> {
  const key = `${file}|${iconSourceKey(source)}`;
  let entry = drawn.get(key);
  if (!entry) {
    entry = drawIcon(file, source, store).then((body) => ({
      body,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    }));
    drawn.set(key, entry);
    entry.catch(() => drawn.delete(key));
  }
  return entry;
}

function notFound(): Response {
  return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}

/**
 * GET of a channel's icon file, the channel found from the Host header as the API and the proxy find it (the route
 * passes the cached channel read). Unknown
 * file or channel → 404. Browsers keep it a day (a changed brand reaches pages through the links' version) and
 * revalidate with the ETag.
 */
export async function brandIconResponse(
  request: Request,
  file: string,
  findChannel: (key: string) => Promise<ChannelRow | null> = (key) => findChannelByKey(key),
  store: MediaStore = mediaStore(),
): Promise<Response> {
  if (!isIconFile(file)) return notFound();
  const e = env();
  const key = (await routeHostOrKeyRule(getDb, request.headers.get('host') ?? '', domainSettings(e))).key;
  const channel = await findChannel(key);
  if (!channel) return notFound();
  const { body, etag } = await cachedIcon(file, iconSource(channel.brandName, parseSkin(channel.skinJson)), store);
  const headers = { etag, 'cache-control': 'public, max-age=86400' };
  if (
    request.headers
      .get('if-none-match')
      ?.split(/\s*,\s*/)
      .includes(etag)
  )
    return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(body), { headers: { ...headers, 'content-type': ICON_FILES[file].type } });
}
