import { findSale } from '@/lib/sale/service';
import { pageScope } from '@/lib/page/channel';
import { sharePoster } from '@/lib/share/posters';
import { posterContext, posterResponse, text } from '../poster-route';

/**
 * GET /api/share/poster/:saleId[?from=<share code>] — the share poster of a sale of the host's channel (issue 36,
 * docs/sharing.md): a PNG whose QR code is the goods link with the sharer's `from` when it is a valid code of this
 * channel, the plain link otherwise. Open to everyone; drawing is rate-limited (429 with Retry-After).
 */
export async function GET(request: Request, { params }: { params: Promise<{ saleId: string }> }): Promise<Response> {
  const { saleId } = await params;
  const context = await posterContext(request);
  const sale = context && /^[1-9]\d{0,9}$/.test(saleId) ? await findSale(pageScope(context.channel), saleId) : null;
  if (!context || !sale) return text(404, 'No such sale in this store (saleId).');
  const from = new URL(request.url).searchParams.get('from');
  const answer = await sharePoster({ ...context, channel: { id: context.channel.id, key: context.channel.key }, sale, from });
  return posterResponse(answer, context.locale);
}
