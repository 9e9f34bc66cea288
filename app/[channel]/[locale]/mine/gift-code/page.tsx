import { titledPage } from '@/lib/page/metadata';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { requirePageScope } from '@/lib/page/session';
import { myAccountNumber } from '@/lib/transfer/service';
import { giftCodePath } from '@/lib/transfer/gift-code';
import { publicOrigin } from '@/lib/env';
import { PageHeader } from '@/components/layout/page-header';
import { Card } from '@/components/ui/card';
import { QrCode } from '@/components/collection/qr-code';
import { spacedAccountNumber } from '@/components/transfer/account-number';

type Props = { params: Promise<PageParams> };

export const generateMetadata = titledPage(({ t }) => t('certificate.giftCodeTitle'));

/**
 * /mine/gift-code (issue 36, login required): the buyer's gift code, opened from the account-number row on Mine. A QR
 * code drawn on the server (no script) of the link a friend scans to give them a collectible (lib/transfer/gift-code.ts),
 * with their account number under it for a friend who types it instead.
 */
export default async function GiftCodePage({ params }: Props) {
  const channel = await loadPageChannel(params);
  const scope = await requirePageScope(channel, '/mine/gift-code');
  const number = await myAccountNumber(scope);
  const { t, theme } = channel;
  const link = `${publicOrigin(channel.publicHost)}${giftCodePath(number)}`;
  return (
    <>
      <PageHeader title={t('certificate.giftCodeTitle')} backHref="/mine" backLabel={t('goods.back')} />
      <main className="px-3 pt-3 pb-[1.6rem]">
        <Card as="section" className="flex flex-col items-center gap-3 px-5 py-6 text-center" data-testid="gift-code">
          <p className="text-sm font-semibold text-skin-1">{theme.brandName}</p>
          <div className="rounded-xl bg-white p-2 shadow-card">
            <QrCode text={link} label={t('certificate.giftCodeAlt', { number })} className="size-[4.4rem]" />
          </div>
          <dl className="flex flex-col items-center">
            <dt className="text-xs text-neutral-500">{t('certificate.accountNumber')}</dt>
            <dd className="text-lg font-semibold text-skin-1 tabular-nums select-all" data-testid="gift-code-number">
              {spacedAccountNumber(number)}
            </dd>
          </dl>
          <p className="text-xs leading-relaxed text-neutral-600">{t('certificate.giftCodeBody')}</p>
        </Card>
      </main>
    </>
  );
}
