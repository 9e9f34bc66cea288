import type { GiftCampaignsForPage } from '@/lib/page/gift';
import { FooterNav } from '@/components/layout/footer-nav';
import { CampaignList } from './campaign-list';
import { Card } from '@/components/ui/card';
import { ChannelBanner } from '@/components/layout/channel-banner';

/**
 * The receive list page (spec §2 receive and receive2, title 'receive list'; open to visitors, spec §6). Both
 * versions show the same list and differ in the detail route they link to. The footer is shown too (our decision,
 * docs/decisions.md): on a gift-only channel this is where home leads, and /mine must stay one tap away.
 */
export function ReceiveListPage({ loaded, detailPath }: { loaded: GiftCampaignsForPage; detailPath: string }) {
  const { channel, campaigns } = loaded;
  const { t, skin, theme, labels } = channel;
  return (
    <>
      <main className="pb-[1.6rem]">
        <ChannelBanner src={skin.bannerImg} brandName={theme.brandName} placeholderColor={skin.color1} />
        <div className="relative -mt-6 px-3">
          <Card as="h1" className="mb-3 p-3 text-lg font-semibold text-skin-1">
            {t('gift.listTitle')}
          </Card>
          <CampaignList campaigns={campaigns} detailPath={detailPath} t={t} timeZone={theme.timeZone} placeholderColor={skin.lightColor} />
        </div>
      </main>
      <FooterNav labels={labels} attributes={theme.attributes} current="receive" t={t} />
    </>
  );
}
