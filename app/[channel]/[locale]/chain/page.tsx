import Link from 'next/link';
import { loadPageChannel, pageScope, type PageParams } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { getPageUser } from '@/lib/page/session';
import { readChainCampaigns } from '@/lib/page/cached-reads';
import { BannerPage } from '@/components/layout/banner-page';
import { ChainCampaignList } from '@/components/chain/campaign-list';
import { ChainCodeForm } from '@/components/chain/code-form';
import { Card } from '@/components/ui/card';
import { ClientMessages } from '@/components/shell/client-messages';
import { channelView } from '@/components/layout/channel-view';
import { storeNameIn } from '@/lib/chain/names';
import { loginHref, searchOf } from '@/lib/auth/redirect';

type Props = { params: Promise<PageParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export const generateMetadata = titledPage(({ t }) => t('chain.title'), { listed: true });

/**
 * /chain (spec §2 chain, title 'self chain-up', footer; label 4): the channel's coverChainImg, the code and store form
 * (a visitor is asked to log in first: codes are rate-limited per user), and the campaigns whose products can be
 * chained up. A channel without chain-up campaigns shows an empty list.
 */
export default async function ChainPage({ params, searchParams }: Props) {
  const channel = await loadPageChannel(params);
  const { t, skin, theme } = channel;
  const [user, { campaigns, stores }] = await Promise.all([
    getPageUser({ id: channel.id, key: theme.key }),
    readChainCampaigns(pageScope(channel)),
  ]);
  const open = campaigns.some((c) => c.status === 1) && stores.length > 0;
  // The log-in link comes back here with the query the buyer arrived with (home sends label-4 channels here with the
  // query kept, spec §2 Guards; issue 30: the link dropped it).
  const here = `/chain${searchOf(await searchParams)}`;
  return (
    <BannerPage channel={channel} banner={skin.coverChainImg} title={t('chain.title')} tab="chain">
      {open ? (
        <Card as="section" className="flex flex-col gap-3 p-4">
          <p className="text-sm text-neutral-600">{t('chain.intro')}</p>
          {user ? (
            <ClientMessages channel={channel} namespaces={['chain']}>
              <ChainCodeForm stores={stores.map((s) => ({ ...s, name: storeNameIn(s, t) }))} />
            </ClientMessages>
          ) : (
            <Link
              href={loginHref(here)}
              className="block rounded-full bg-skin-button py-3 text-center text-base font-semibold text-skin-button-text"
              data-testid="chain-login"
            >
              {t('chain.loginToChainUp')}
            </Link>
          )}
        </Card>
      ) : null}
      <h2 className="px-1 pt-1 text-base font-semibold text-skin-1">{t('chain.campaignsTitle')}</h2>
      <ChainCampaignList campaigns={campaigns} {...channelView(channel)} />
    </BannerPage>
  );
}
