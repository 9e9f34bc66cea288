import { pageScope } from '@/lib/page/channel';
import { CERTIFICATE_CODE, publicCertificate } from '@/lib/transfer/certificate';
import { certificatePoster } from '@/lib/share/posters';
import { posterContext, posterResponse, text } from '../../poster-route';

/**
 * GET /api/share/poster/cert/:code — the share poster of a held edition (issue 36: sharing a held collectible;
 * docs/sharing.md): a PNG with its cover, name and number (no price, no holder) and a QR code of its certificate's
 * public page. Open to everyone who has the code, as the public page is; drawing is rate-limited like the sale's.
 */
export async function GET(request: Request, { params }: { params: Promise<{ code: string }> }): Promise<Response> {
  const { code } = await params;
  const context = await posterContext(request);
  const certificate = context && CERTIFICATE_CODE.test(code) ? await publicCertificate(pageScope(context.channel), code) : null;
  if (!context || !certificate) return text(404, 'No such certificate in this store (code).');
  const answer = await certificatePoster({ ...context, channel: { id: context.channel.id, key: context.channel.key }, certificate });
  return posterResponse(answer, context.locale);
}
