import 'server-only';
import { getDb, type Db } from '../db/client';
import { env } from '../env';
import { domainSettings, routeHostOrKeyRule } from '../channel/domains';
import { requireChannel } from '../channel/service';
import { AppError } from '../procedure/errors';
import { msg, renderMessage } from '../procedure/messages';
import { apiLocale, type Locale } from '../i18n/locale';
import { authSecret } from '../security/secret';
import { resolveToken } from '../auth/sessions';
import { refuseBlockedSession } from '../auth/blocks';
import { bearerToken, readWebSession, sessionCookieValue } from '../auth/session-claims';
import { isOperatorHost } from '../operator/host';
import type { MediaStore } from '../media/store';
import { AVATAR_MAX_BYTES, uploadAvatar } from '../buyer/profile-avatar';
import { readBytesWithin } from './http';

/**
 * The buyer's avatar upload (issue 36; docs/profile.md, "Avatar"): a route of its own beside the procedures, since its
 * body is the photo's bytes, not JSON. Kept out of the registry's imports (it reads bodies with lib/server/http).
 */

/** Where a store's page posts the photo (app/api/market/api/profile/avatar/route.ts). */
export const AVATAR_UPLOAD_PATH = '/api/market/api/profile/avatar';

/**
 * The header a store's page sends with the photo. A POST with any body is a request another site's page may send
 * without asking, and the channel hosts are siblings of one site (the cookie rides along): a custom header makes the
 * browser ask first (CORS preflight), which we never grant, so only the store's own pages upload with its cookie.
 */
export const AVATAR_UPLOAD_HEADER = 'x-avatar-upload';

function answer(status: number, code: number, message: string, data: unknown, close = false): Response {
  return Response.json(
    { code, message, data },
    { status, headers: { 'cache-control': 'no-store', ...(close ? { connection: 'close' } : {}) } },
  );
}

/** The origin checks of a cookie call (lib/security/csrf.ts), for a body that is not JSON. */
function crossSiteProblem(headers: Headers, host: string): string | null {
  if (headers.get(AVATAR_UPLOAD_HEADER) !== '1')
    return `${AVATAR_UPLOAD_HEADER}: must be 1 (photos are uploaded from the store's own pages)`;
  const site = headers.get('sec-fetch-site')?.trim().toLowerCase();
  if (site && site !== 'same-origin' && site !== 'none') return `origin: a ${site} request cannot use this store's session`;
  const origin = headers.get('origin');
  if (origin !== null) {
    try {
      if (new URL(origin).host.toLowerCase() !== host.trim().toLowerCase()) throw new Error('another host');
    } catch {
      return "origin: a request from another site cannot use this store's session";
    }
  }
  return null;
}

/**
 * POST /api/market/api/profile/avatar, the body the photo's bytes (any content type: the bytes are what is checked).
 * The buyer is checked before a byte of the body is read (the store's host, the session cookie from the store's own
 * page, or a bearer token); the body is read up to AVATAR_MAX_BYTES and no further (413, naming `avatar`); the photo
 * then goes through lib/buyer/profile-avatar.ts. The answer is the profile, its avatar the stored photo.
 */
export async function handleAvatarUpload(request: Request, options: { db?: Db; now?: Date; store?: MediaStore } = {}): Promise<Response> {
  const headers = request.headers;
  const host = headers.get('host') ?? new URL(request.url).host;
  const refuse = async (status: number, code: number, message: string, data: unknown = null): Promise<Response> => {
    // What was not read is never read: the connection is closed rather than drained.
    await request.body?.cancel().catch(() => {});
    return answer(status, code, message, data, request.body !== null);
  };
  const e = env();
  // A store's call: on the operator host it is an unknown path, as every market call is there.
  if (isOperatorHost(host, e.OPERATOR_HOST)) return refuse(404, 404, `unknown API path ${AVATAR_UPLOAD_PATH}`);
  if (request.method !== 'POST') return refuse(200, 400, `${AVATAR_UPLOAD_PATH} must be called with POST`);

  const db = options.db ?? getDb();
  const now = options.now ?? new Date();
  let locale: Locale = apiLocale(headers.get('accept-language'), null);
  let channel;
  try {
    const key = (await routeHostOrKeyRule(db, host, domainSettings(e), now)).key;
    channel = await requireChannel(key, db);
  } catch (error) {
    if (error instanceof AppError) return refuse(200, error.code, error.messageIn(locale), error.data);
    throw error;
  }
  locale = apiLocale(headers.get('accept-language'), channel.locale);
  const notLoggedIn = () => refuse(200, 401, renderMessage(msg('notLoggedIn'), locale));

  let token = bearerToken(headers.get('authorization'));
  if (!token) {
    const cookie = sessionCookieValue(headers.get('cookie'));
    if (!cookie) return notLoggedIn();
    const crossSite = crossSiteProblem(headers, host);
    if (crossSite) return refuse(200, 403, crossSite);
    token = (await readWebSession(cookie, authSecret(), channel.key, now.getTime()))?.apiToken ?? null;
    if (!token) return notLoggedIn();
  }
  let user;
  try {
    user = await resolveToken(db, { token, channelId: channel.id, now });
    if (!user) await refuseBlockedSession(db, { token, channelId: channel.id });
  } catch (error) {
    if (error instanceof AppError) return refuse(200, error.code, error.messageIn(locale, channel.timeZone), error.data);
    throw error;
  }
  if (!user) return notLoggedIn();

  const body = await readBytesWithin(request, AVATAR_MAX_BYTES);
  if (body === null) {
    const message = renderMessage(msg('profileAvatarTooLarge', { max: AVATAR_MAX_BYTES / 1024 / 1024 }), locale);
    return answer(413, 400, message, { field: 'avatar' }, true);
  }
  try {
    const profile = await uploadAvatar({ db, now, channelId: channel.id, userId: user.id }, new Uint8Array(body), {
      store: options.store,
    });
    return answer(200, 200, 'ok', profile);
  } catch (error) {
    if (error instanceof AppError) return answer(200, error.code, error.messageIn(locale, channel.timeZone), error.data);
    throw error;
  }
}
