import 'server-only';
import { getDb, type Db } from '../db/client';
import { env } from '../env';
import { AppError } from '../procedure/errors';
import { msg, renderMessage } from '../procedure/messages';
import { apiLocale, type Locale } from '../i18n/locale';
import { cookieValue } from '../security/cookies';
import { clientIp } from './client-ip';
import { readBytesWithin } from './http';
import { MAX_IMAGE_BYTES, storeImage, type ImagePurpose } from '../media/image';
import { mediaStore, type MediaStore } from '../media/store';
import { resolveOperatorSession } from '../operator/accounts';
import { recordAudit } from '../operator/audit';
import { operatorChannel } from '../operator/channels';
import { isOperatorHost, OPERATOR_COOKIE } from '../operator/host';
import { SKIN_WRITERS } from '../operator/skin-procedures';

/**
 * The skin editor's brand image uploads (issue 31, "Media storage"): a route of its own beside the procedures, since
 * its body is an image (multipart), not JSON. Kept out of the registry's imports (it reads bodies with lib/server/http).
 */

/** The brand images the console uploads, by the skin field each fills, and what lib/media makes of each. */
export const SKIN_UPLOADS = {
  brandImg: 'logo',
  bannerImg: 'banner',
  shareImg: 'share',
  faviconImg: 'favicon',
} as const satisfies Record<string, ImagePurpose>;

export type SkinUploadField = keyof typeof SKIN_UPLOADS;

/** Where the console posts an image (app/api/ops/api/skin/upload/route.ts). */
export const SKIN_UPLOAD_PATH = '/ops/api/skin/upload';

/**
 * The most of an upload's body that is read: the image's 10 MB and room for the multipart envelope around it (the
 * boundaries and the part's headers, a few hundred bytes). Past it the server stops reading and answers 413.
 */
export const SKIN_UPLOAD_BODY_LIMIT = MAX_IMAGE_BYTES + 16 * 1024;

/**
 * The header a console page sends with an upload. A multipart POST is a request any page may send without asking, and
 * the channel hosts are the operator host's siblings (same site, so SameSite=Strict lets the cookie ride along): a
 * custom header makes the browser ask first (CORS preflight), which we never grant, so only the console's own pages
 * can upload with an operator's cookie.
 */
export const SKIN_UPLOAD_HEADER = 'x-console-upload';

type Answer = { status: number; code: number; message: string; data: unknown; close?: boolean };

function answer({ status, code, message, data, close }: Answer): Response {
  return Response.json(
    { code, message, data },
    { status, headers: { 'cache-control': 'no-store', ...(close ? { connection: 'close' } : {}) } },
  );
}

/** The origin check of a cookie call (lib/security/csrf.ts), for a multipart body. */
function crossSiteProblem(headers: Headers, host: string): string | null {
  if (headers.get(SKIN_UPLOAD_HEADER) !== '1') return `${SKIN_UPLOAD_HEADER}: must be 1 (uploads come from the console's own pages)`;
  const site = headers.get('sec-fetch-site')?.trim().toLowerCase();
  if (site && site !== 'same-origin' && site !== 'none') return `origin: a ${site} request cannot use the console's session`;
  const origin = headers.get('origin');
  if (origin !== null) {
    try {
      if (new URL(origin).host.toLowerCase() !== host.trim().toLowerCase()) throw new Error('another host');
    } catch {
      return "origin: a request from another site cannot use the console's session";
    }
  }
  return null;
}

/**
 * POST /api/ops/api/skin/upload?channel=<key>&field=<brandImg|bannerImg|shareImg|faviconImg>, a multipart body with
 * the image as `file` (issue 31, "Media storage"). The operator is checked before a byte of the body is read (host,
 * session, role, the channel granted); the body is read up to SKIN_UPLOAD_BODY_LIMIT and no further (413, naming the
 * file); the image then goes through lib/media's checks (type by its bytes, 10 MB, 8,000 px a side, bombs refused before
 * decoding, SVG refused) and is stored re-encoded as WebP. The answer is the URL the draft skin names. Audited; the skin
 * itself changes only when the draft is published.
 */
export async function handleSkinUpload(request: Request, options: { db?: Db; now?: Date; store?: MediaStore } = {}): Promise<Response> {
  const headers = request.headers;
  const host = headers.get('host') ?? '';
  const locale: Locale = apiLocale(headers.get('accept-language'), null);
  const refuse = async (code: number, message: string, data: unknown = null, status = 200): Promise<Response> => {
    // What was not read is never read: the connection is closed rather than drained.
    await request.body?.cancel().catch(() => {});
    return answer({ status, code, message, data, close: request.body !== null });
  };
  // Like every console call, only on the operator host (issue 31): elsewhere it is an unknown path.
  if (!isOperatorHost(host, env().OPERATOR_HOST)) return refuse(404, `unknown API path ${SKIN_UPLOAD_PATH}`, null, 404);
  if (request.method !== 'POST') return refuse(400, `${SKIN_UPLOAD_PATH} must be called with POST`);

  const db = options.db ?? getDb();
  const now = options.now ?? new Date();
  const cookie = cookieValue(headers.get('cookie'), OPERATOR_COOKIE);
  if (!cookie) return refuse(401, renderMessage(msg('opsNotSignedIn'), locale));
  const crossSite = crossSiteProblem(headers, host);
  if (crossSite) return refuse(403, crossSite);
  const operator = await resolveOperatorSession(db, cookie, now);
  if (!operator) return refuse(401, renderMessage(msg('opsNotSignedIn'), locale));
  if (!SKIN_WRITERS.includes(operator.role)) return refuse(403, renderMessage(msg('opsRoleRefused'), locale));

  const search = new URL(request.url).searchParams;
  const key = search.get('channel') ?? '';
  const field = search.get('field') ?? '';
  if (!/^[A-Z0-9]{1,64}$/.test(key))
    return refuse(400, 'channel: must be a channel key: upper-case letters and digits', { field: 'channel' });
  if (!Object.hasOwn(SKIN_UPLOADS, field)) {
    return refuse(400, `field: must be one of ${Object.keys(SKIN_UPLOADS).join(', ')}`, { field: 'field' });
  }
  let channel;
  try {
    channel = await operatorChannel(db, operator, key);
  } catch (error) {
    if (error instanceof AppError) return refuse(error.code, error.messageIn(locale), error.data);
    throw error;
  }
  const type = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'multipart/form-data')
    return refuse(400, 'content-type: must be multipart/form-data with the image as file', { field: 'file' });

  const body = await readBytesWithin(request, SKIN_UPLOAD_BODY_LIMIT);
  if (body === null) {
    return answer({
      status: 413,
      code: 400,
      message: renderMessage(msg('mediaTooLarge', { max: MAX_IMAGE_BYTES / 1024 / 1024 }), locale),
      data: { field: 'file' },
      close: true,
    });
  }
  let file: FormDataEntryValue | null;
  try {
    file = (await new Response(new Uint8Array(body), { headers: { 'content-type': headers.get('content-type')! } }).formData()).get('file');
  } catch {
    return refuse(400, 'body: is not a multipart form with the image as file', { field: 'file' });
  }
  if (file === null || typeof file === 'string') return refuse(400, 'file: is required and must be a file', { field: 'file' });

  const purpose = SKIN_UPLOADS[field as SkinUploadField];
  let stored;
  try {
    stored = await storeImage(new Uint8Array(await file.arrayBuffer()), purpose, options.store ?? mediaStore());
  } catch (error) {
    if (error instanceof AppError) return refuse(error.code, error.messageIn(locale), error.data);
    throw error;
  }
  await recordAudit(db, {
    at: now,
    operatorId: operator.operatorId,
    operatorName: operator.name,
    ip: clientIp(headers),
    channelId: channel.id,
    procedure: 'skin/upload',
    input: { channel: channel.key, field, purpose, bytes: stored.source.bytes, kind: stored.source.kind },
    after: { url: stored.url, renditions: stored.renditions.map((r) => r.url) },
  });
  return answer({
    status: 200,
    code: 200,
    message: 'ok',
    data: { field, url: stored.url, width: stored.source.width, height: stored.source.height },
  });
}
