import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { PaySuccessPanel } from '@/components/buy/pay-success-panel';
import { ClientMessages } from '@/components/shell/client-messages';

type Props = { params: Promise<PageParams> };

export const generateMetadata = titledPage(({ t }) => t('result.successTitle'));

/**
 * /pay/success (spec §2 paySuccess): the channel's paySuccessImg, what was bought, its edition numbers, where to see it.
 * The page is the same for every buyer (issue 34; lib/channel/routes.ts `shared.buyerPart`): served from the
 * rendered-page cache, its HTML and flight answers hold nothing of an order, and the buyer's order (`?orderNo=`) is read
 * by its client part through `pay/query` (components/buy/pay-success-panel.tsx). The login guard runs before the cache.
 */
export default async function PaySuccessPage({ params }: Props) {
  const channel = await loadPageChannel(params);
  return (
    <ClientMessages channel={channel} namespaces={['result']}>
      <PaySuccessPanel
        image={channel.skin.paySuccessImg}
        placeholderColor={channel.skin.lightColor}
        showAmount={channel.theme.showAmount}
      />
    </ClientMessages>
  );
}
