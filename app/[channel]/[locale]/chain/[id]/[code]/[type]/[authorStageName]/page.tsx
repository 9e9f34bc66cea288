import { redirect } from 'next/navigation';
import { loadPageChannel, pageScope, type PageParams } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { requirePageUser } from '@/lib/page/session';
import { foundOr404 } from '@/lib/page/found';
import { getChainCampaign, listStores } from '@/lib/chain/chain-up';
import { storeNameIn } from '@/lib/chain/names';
import { PageHeader } from '@/components/layout/page-header';
import { CollectibleArt } from '@/components/ui/collectible-art';
import { ConfirmChainUp } from '@/components/chain/confirm-chain-up';
import { Card } from '@/components/ui/card';
import { ClientMessages } from '@/components/shell/client-messages';
import { routeId } from '@/lib/page/route-id';

type Params = PageParams & { id: string; code: string; type: string; authorStageName: string };
type Props = { params: Promise<Params> };

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export const generateMetadata = titledPage(({ t }) => t('chain.confirmTitle'));

/**
 * /chain/:id/:code/:type/:authorStageName (spec §2 chainUp; login required, docs/decisions.md): what chaining up
 * will give, from campaign `:id` of artist `:authorStageName`, bought at store `:code` (one of the channel's store
 * codes, spec §9), with a code of `:type` (1 product code, 2 certificate code); then the confirm button. The product's
 * own code is not in the address: it comes in the goods state (spec §3 chainCode). A path that does not describe one
 * of this channel's campaigns and stores is /404.
 */
export default async function ChainUpPage({ params }: Props) {
  const channel = await loadPageChannel(params);
  const raw = await params;
  // Next hands dynamic segments over as they appear in the address (still percent-encoded).
  const [id, storeCode, type, authorStageName] = [raw.id, raw.code, raw.type, raw.authorStageName].map(decodeSegment) as [
    string,
    string,
    string,
    string,
  ];
  await requirePageUser(
    channel,
    `/chain/${encodeURIComponent(id)}/${encodeURIComponent(storeCode)}/${encodeURIComponent(type)}/${encodeURIComponent(authorStageName)}`,
  );
  const campaignId = routeId(id);
  if (campaignId === null || (type !== '1' && type !== '2')) redirect('/404');
  const ctx = pageScope(channel);
  const [campaign, stores] = await Promise.all([foundOr404(getChainCampaign(ctx, campaignId)), listStores(ctx)]);
  const store = stores.find((s) => s.code === storeCode);
  if (!store || campaign.authorStageName !== authorStageName) redirect('/404');
  const { t, skin } = channel;
  const row = 'flex justify-between gap-3 py-1.5';
  return (
    <>
      <PageHeader title={t('chain.confirmTitle')} backHref="/chain" backLabel={t('chain.back')} />
      <main className="flex flex-col gap-4 px-3 pt-3 pb-[1.6rem]">
        <Card as="section" className="flex flex-col gap-3 p-4">
          <div className="flex items-center gap-3">
            <CollectibleArt collectible={campaign.commodity} named width="1.6rem" priority placeholderColor={skin.lightColor} />
            <div className="min-w-0">
              <p className="text-xs text-neutral-500">{t('chain.willMint')}</p>
              <h2 className="text-base font-semibold text-skin-1" data-testid="chain-up-commodity">
                {campaign.commodity.name}
              </h2>
              <p className="text-xs text-neutral-500">{t('chain.editionOf', { count: campaign.commodity.amountSku })}</p>
            </div>
          </div>
          <dl className="divide-y divide-black/5 text-sm" data-testid="chain-up-facts">
            <div className={row}>
              <dt className="text-neutral-500">{t('chain.product')}</dt>
              <dd className="text-right text-neutral-800">{campaign.name}</dd>
            </div>
            <div className={row}>
              <dt className="text-neutral-500">{t('chain.author')}</dt>
              <dd className="text-right text-neutral-800">{campaign.authorStageName}</dd>
            </div>
            <div className={row}>
              <dt className="text-neutral-500">{t('chain.store')}</dt>
              <dd className="text-right text-neutral-800" data-testid="chain-up-store">
                {storeNameIn(store, t)} ({store.code})
              </dd>
            </div>
            <div className={row}>
              <dt className="text-neutral-500">{t('chain.codeType')}</dt>
              <dd className="text-right text-neutral-800">{type === '2' ? t('chain.typeCertificate') : t('chain.typeProduct')}</dd>
            </div>
          </dl>
        </Card>
        <ClientMessages channel={channel} namespaces={['chain']}>
          <ConfirmChainUp campaignId={campaign.id} storeCode={store.code} type={type === '2' ? 2 : 1} />
        </ClientMessages>
      </main>
    </>
  );
}
