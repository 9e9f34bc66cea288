import { redirect } from 'next/navigation';
import { env } from '@/lib/env';
import { PAYMENT_NO } from '@/lib/order/status';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { SandboxCashier } from '@/components/buy/sandbox-cashier';
import { ClientMessages } from '@/components/shell/client-messages';

type Props = { params: Promise<PageParams & { paymentNo: string }> };

export const generateMetadata = titledPage(({ t }) => t('cashier.title'));

/**
 * The payment sandbox's cashier (DESIGN §7): plays the payment provider's page. It says plainly that no money moves;
 * its buttons settle the payment the way a provider would (a signed notification to the store). The page is the same
 * for every payment (issue 34; lib/channel/routes.ts `shared.buyerPart`): served from the rendered-page cache, and the
 * payment (amount, what is bought, whether it is still open) is read by its client part through pay/sandbox/detail
 * (components/buy/sandbox-cashier.tsx). The login guard, and the check that the sandbox is a provider and the number a
 * payment number, run before the cache (lib/page/shared-page.ts).
 */
export default async function SandboxCashierPage({ params }: Props) {
  const channel = await loadPageChannel(params);
  // The plan's checks again, for a request the cache does not answer (it reads nothing): no sandbox, no cashier.
  const { paymentNo } = await params;
  if (!env().PAYMENT_PROVIDERS.includes('sandbox') || !PAYMENT_NO.test(paymentNo)) redirect('/404');
  return (
    <ClientMessages channel={channel} namespaces={['cashier']}>
      <SandboxCashier merchant={channel.theme.brandName} backLabel={channel.t('goods.back')} />
    </ClientMessages>
  );
}
