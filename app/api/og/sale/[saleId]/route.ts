import { domainSettings, routeHostOrKeyRule } from '@/lib/channel/domains';
import { getDb } from '@/lib/db/client';
import { findChannelByKey, toThemeInfo } from '@/lib/channel/service';
import { findSale } from '@/lib/sale/service';
import { pageScope } from '@/lib/page/channel';
import { saleOgCard } from '@/lib/sale/og-card';
import { env } from '@/lib/env';
import { negotiateLocale } from '@/lib/i18n/locale';
import { translator } from '@/lib/i18n/translator';

/** GET /api/og/sale/:saleId — the PNG link-preview card of a sale of the host's channel. */
export async function GET(request: Request, { params }: { params: Promise<{ saleId: string }> }): Promise<Response> {
  const { saleId } = await params;
  const e = env();
  const key = (await routeHostOrKeyRule(getDb, request.headers.get('host') ?? '', domainSettings(e))).key;
  const channel = await findChannelByKey(key);
  const sale = channel ? await findSale(pageScope(channel), saleId) : null;
  if (!channel || !sale) return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });
  const locale = negotiateLocale(channel.locale, request.headers.get('accept-language'));
  return saleOgCard(toThemeInfo(channel), sale, translator(locale));
}
