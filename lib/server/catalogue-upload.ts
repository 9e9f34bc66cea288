import 'server-only';
import { getDb, type Db } from '../db/client';
import { env } from '../env';
import { AppError } from '../procedure/errors';
import { msg, renderMessage } from '../procedure/messages';
import { apiLocale, type Locale } from '../i18n/locale';
import { cookieValue } from '../security/cookies';
import { clientIp } from './client-ip';
import { readBytesWithin } from './http';
import { MAX_IMAGE_BYTES, storeImage } from '../media/image';
import { mediaStore, type MediaStore } from '../media/store';
import { resolveOperatorSession } from '../operator/accounts';
import { recordAudit } from '../operator/audit';
import { operatorChannel } from '../operator/channels';
import { isOperatorHost, OPERATOR_COOKIE } from '../operator/host';
import { SKIN_UPLOAD_BODY_LIMIT, SKIN_UPLOAD_HEADER } from './skin-upload';

/**
 * A collectible's picture uploads (issue 32, "Catalogue": images uploaded, re-encoded; several per collectible): the
 * cover, a gallery picture or the creator's face, through lib/media as the Skin tab's uploads go (lib/server/skin-upload.ts,
 * whose checks this follows: operator before body, the console's own header, a bounded body, the image's checks). The
 * answer is the URL the collectible's form then names; the collectible changes only when the form is saved. Audited.
 */
export const CATALOGUE_UPLOAD_PATH = '/ops/api/catalogue/upload';
const FIELDS = ['cover', 'gallery', 'authorCover'] as const;
/** Who may upload: those who may write the catalogue (lib/operator/catalogue-procedures.ts). */
const WRITERS: readonly string[] = ['owner', 'manager'];

function answer(status: number, code: number, message: string, data: unknown, close = false): Response {
  return Response.json(
    { code, message, data },
    { status, headers: { 'cache-control': 'no-store', ...(close ? { connection: 'close' } : {}) } },
  );
}

/** The cross-site checks of a cookie call with a multipart body (as lib/server/skin-upload.ts). */
function crossSiteProblem(headers: Headers, host: string): string | null {
  if (headers.get(SKIN_UPLOAD_HEADER) !== '1') return `${SKIN_UPLOAD_HEADER}: must be 1 (uploads come from the console's own pages)`;
  const site = headers.get('sec-fetch-site')?.trim().toLowerCase();
  if (site && site !== 'same-origin' && site !== 'none') return `origin: a ${site} request cannot use the console's session`;
  const origin = headers.get('origin');
  if (origin !== null) {
    try {
      if (new URL(origin).host.toLowerCase() !== host.trim().toLowerCase())
        return "origin: a request from another site cannot use the console's session";
    } catch {
      return "origin: a request from another site cannot use the console's session";
    }
  }
  return null;
}

/** POST /api/ops/api/catalogue/upload?channel=<key>&field=<cover|gallery|authorCover>, the image as `file`. */
export async function handleCatalogueUpload(
  request: Request,
  options: { db?: Db; now?: Date; store?: MediaStore } = {},
): Promise<Response> {
  const headers = request.headers;
  const host = headers.get('host') ?? '';
  const locale: Locale = apiLocale(headers.get('accept-language'), null);
  const refuse = async (code: number, message: string, data: unknown = null, status = 200): Promise<Response> => {
    await request.body?.cancel().catch(() => {});
    return answer(status, code, message, data, request.body !== null);
  };
  if (!isOperatorHost(host, env().OPERATOR_HOST)) return refuse(404, `unknown API path ${CATALOGUE_UPLOAD_PATH}`, null, 404);
  if (request.method !== 'POST') return refuse(400, `${CATALOGUE_UPLOAD_PATH} must be called with POST`);
  const db = options.db ?? getDb();
  const now = options.now ?? new Date();
  const cookie = cookieValue(headers.get('cookie'), OPERATOR_COOKIE);
  if (!cookie) return refuse(401, renderMessage(msg('opsNotSignedIn'), locale));
  const crossSite = crossSiteProblem(headers, host);
  if (crossSite) return refuse(403, crossSite);
  const operator = await resolveOperatorSession(db, cookie, now);
  if (!operator) return refuse(401, renderMessage(msg('opsNotSignedIn'), locale));
  if (!WRITERS.includes(operator.role)) return refuse(403, renderMessage(msg('opsRoleRefused'), locale));
  const search = new URL(request.url).searchParams;
  const key = search.get('channel') ?? '';
  const field = search.get('field') ?? '';
  if (!/^[A-Z0-9]{1,64}$/.test(key))
    return refuse(400, 'channel: must be a channel key: upper-case letters and digits', { field: 'channel' });
  if (!(FIELDS as readonly string[]).includes(field)) return refuse(400, `field: must be one of ${FIELDS.join(', ')}`, { field: 'field' });
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
    return answer(413, 400, renderMessage(msg('mediaTooLarge', { max: MAX_IMAGE_BYTES / 1024 / 1024 }), locale), { field: 'file' }, true);
  }
  let file: FormDataEntryValue | null;
  try {
    file = (await new Response(new Uint8Array(body), { headers: { 'content-type': headers.get('content-type')! } }).formData()).get('file');
  } catch {
    return refuse(400, 'body: is not a multipart form with the image as file', { field: 'file' });
  }
  if (file === null || typeof file === 'string') return refuse(400, 'file: is required and must be a file', { field: 'file' });
  let stored;
  try {
    stored = await storeImage(new Uint8Array(await file.arrayBuffer()), 'goods', options.store ?? mediaStore());
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
    procedure: 'catalogue/upload',
    input: { channel: channel.key, field, bytes: stored.source.bytes, kind: stored.source.kind },
    after: { url: stored.url, renditions: stored.renditions.map((r) => r.url) },
  });
  return answer(200, 200, 'ok', { field, url: stored.url, width: stored.source.width, height: stored.source.height });
}
