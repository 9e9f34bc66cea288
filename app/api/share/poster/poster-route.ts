import { domainSettings, publicHostOf, routeHostOrKeyRule } from '@/lib/channel/domains';
import { getDb } from '@/lib/db/client';
import { findChannelByKey, toThemeInfo } from '@/lib/channel/service';
import { env, publicOrigin } from '@/lib/env';
import { negotiateLocale } from '@/lib/i18n/locale';
import { translator } from '@/lib/i18n/translator';
import { clientIp } from '@/lib/server/client-ip';
import type { PosterAnswer } from '@/lib/share/posters';

/** A plain-text answer (a refusal of the poster routes). */
export const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });

/** What both poster routes read first: the host's channel (null: not a store), the language, the public origin, the caller. */
export async function posterContext(request: Request) {
  const e = env();
  const db = getDb();
  const key = (await routeHostOrKeyRule(db, request.headers.get('host') ?? '', domainSettings(e))).key;
  const channel = await findChannelByKey(key);
  if (!channel) return null;
  return {
    db,
    channel,
    now: new Date(),
    theme: toThemeInfo(channel),
    locale: negotiateLocale(channel.locale, request.headers.get('accept-language')),
    origin: publicOrigin(await publicHostOf(db, channel, domainSettings(e))),
    ip: clientIp(request.headers),
  };
}

/** A drawn poster as a PNG, or the rate limit's 429 with its wait, in the caller's language. */
export function posterResponse(answer: PosterAnswer, locale: Parameters<typeof translator>[0]): Response {
  if (answer.kind === 'limited') {
    return text(429, translator(locale)('share.posterLimited'), { 'retry-after': String(answer.retryAfterS) });
  }
  return new Response(new Uint8Array(answer.png), {
    headers: {
      'content-type': 'image/png',
      // Per sharer: kept by the browser that asked, never by a shared cache (the link inside may name the sharer).
      'cache-control': 'private, max-age=300',
      'content-length': String(answer.png.length),
    },
  });
}
