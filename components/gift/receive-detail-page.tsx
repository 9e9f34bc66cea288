import { loginHref } from '@/lib/auth/redirect';
import type { GiftForPage } from '@/lib/page/gift';
import { PageHeader } from '@/components/layout/page-header';
import { ClientMessages } from '@/components/shell/client-messages';
import { GiftDetail } from './gift-detail';
import { channelView } from '@/components/layout/channel-view';

/** One gift and its receive button (spec §2 receiveDetail and receiveDetailNew, title 'receive detail'; open to visitors). */
export function ReceiveDetailPage({ loaded, basePath, backHref }: { loaded: GiftForPage; basePath: string; backHref: string }) {
  const { channel, gift, path } = loaded;
  const { t } = channel;
  const here = `${basePath}/${path.id}/${path.offerId}`;
  return (
    <>
      <PageHeader title={t('gift.detailTitle')} backHref={backHref} backLabel={t('gift.back')} />
      <ClientMessages channel={channel} namespaces={['gift']}>
        <main className="px-3 pt-3 pb-[1.6rem]">
          <GiftDetail
            campaign={gift.campaign}
            offer={gift.offer}
            eligibility={gift.eligibility}
            loginHref={loginHref(here)}
            {...channelView(channel)}
          />
        </main>
      </ClientMessages>
    </>
  );
}
