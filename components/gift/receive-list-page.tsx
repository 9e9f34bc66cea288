import type { GiftCampaignsForPage } from '@/lib/page/gift';
import { BannerPage } from '@/components/layout/banner-page';
import { CampaignList } from './campaign-list';
import { channelView } from '@/components/layout/channel-view';

/**
 * The receive list page (spec §2 receive and receive2, title 'receive list'; open to visitors, spec §6). Both
 * versions show the same list and differ in the detail route they link to. The footer is shown too (our decision,
 * docs/decisions.md): on a gift-only channel this is where home leads, and /mine must stay one tap away.
 */
export function ReceiveListPage({ loaded, detailPath }: { loaded: GiftCampaignsForPage; detailPath: string }) {
  const { channel, campaigns } = loaded;
  const { t, skin } = channel;
  return (
    <BannerPage channel={channel} banner={skin.bannerImg} title={t('gift.listTitle')} tab="receive">
      <CampaignList campaigns={campaigns} detailPath={detailPath} {...channelView(channel)} />
    </BannerPage>
  );
}
