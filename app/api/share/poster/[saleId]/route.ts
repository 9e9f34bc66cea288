import { domainSettings, publicHostOf, routeHostOrKeyRule } from '@/lib/channel/domains';
import { getDb } from '@/lib/db/client';
import { findChannelByKey, toThemeInfo } from '@/lib/channel/service';
import { findSale } from '@/lib/sale/service';
import { pageScope } from '@/lib/page/channel';
import { env, publicOrigin } from '@/lib/env';
import { negotiateLocale } from '@/lib/i18n/locale';
import { translator } from '@/lib/i18n/translator';
import { clientIp } from '@/lib/server/client-ip';
import { sharePoster } from '@/lib/share/posters';

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });

/**
 * GET /api/share/poster/:saleId[?from=<share code>] — the share poster of a sale of the host's channel (issue 36,
 * docs/sharing.md): a PNG whose QR code is the goods link with the sharer's `from` when it is a valid code of this
 * channel, the plain link otherwise. Open to everyone; drawing is rate-limited (429 with Retry-After).
 */
export async function GET(request: Request, { params }: { params: Promise<{ saleId: string }> }): Promise<Response> {
  const { saleId } = await params;
  const e = env();
  const db = getDb();
  const key = (await routeHostOrKeyRule(db, request.headers.get('host') ?? '', domainSettings(e))).key;
  const channel = await findChannelByKey(key);
  const sale = channel && /^[1-9]\d{0,9}$/.test(saleId) ? await findSale(pageScope(channel), saleId) : null;
  if (!channel || !sale) return text(404, 'No such sale in this store (saleId).');
  const locale = negotiateLocale(channel.locale, request.headers.get('accept-language'));
  const from = new URL(request.url).searchParams.get('from');
  const origin = publicOrigin(await publicHostOf(db, channel, domainSettings(e)));
  const answer = await sharePoster({
    db,
    now: new Date(),
    channel: { id: channel.id, key: channel.key },
    theme: toThemeInfo(channel),
    origin,
    sale,
    locale,
    from,
    ip: clientIp(request.headers),
  });
  if (answer.kind === 'limited') {
    const t = translator(locale);
    return text(429, t('share.posterLimited'), { 'retry-after': String(answer.retryAfterS) });
  }
  return new Response(new Uint8Array(answer.png), {
    headers: {
      'content-type': 'image/png',
      // Per sharer: kept by the browser that asked, never by a shared cache (the link inside names the sharer).
      'cache-control': 'private, max-age=300',
      'content-length': String(answer.png.length),
    },
  });
}
