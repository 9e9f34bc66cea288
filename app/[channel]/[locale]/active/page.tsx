import { redirect } from 'next/navigation';
import { loadPageChannel, pageScope, type PageParams } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { channelFeatures } from '@/lib/channel/labels';
import { readExchangeActivities } from '@/lib/page/cached-reads';
import { BannerPage } from '@/components/layout/banner-page';
import { ActivityList } from '@/components/exchange/activity-list';
import { channelView } from '@/components/layout/channel-view';

type Props = { params: Promise<PageParams> };

export const generateMetadata = titledPage(({ t }) => t('exchange.listTitle'), { listed: true });

/**
 * /active (spec §2 active, footer; open to visitors): the channel's banner and its exchange activities, each offer
 * linking to /exchange_detail/:id/:exchange_id. Needs label 2 and no `noActive` attribute, else /404 (spec §2): the
 * proxy says so first; the page checks again for when the proxy could not look the channel up (a failed read).
 */
export default async function ActivePage({ params }: Props) {
  const channel = await loadPageChannel(params);
  const { t, skin, theme, labels } = channel;
  if (!channelFeatures(labels, theme.attributes).activityPage) redirect('/404');
  const activities = await readExchangeActivities(pageScope(channel));
  return (
    <BannerPage channel={channel} banner={skin.bannerImg} title={t('exchange.listTitle')} tab="active">
      <ActivityList activities={activities} {...channelView(channel)} />
    </BannerPage>
  );
}
