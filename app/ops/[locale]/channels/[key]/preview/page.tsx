import { getDb } from '@/lib/db/client';
import type { Metadata } from 'next';
import { consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { previewChannel, previewDraft, skinRootCss } from '@/lib/page/skin-preview';
import { pageScope } from '@/lib/page/channel';
import { readSales } from '@/lib/page/cached-reads';
import { HOME_PAGE_SIZE } from '@/lib/sale/schema';
import { HomeView } from '@/components/sale/home-view';
import { StorefrontProvider } from '@/components/shell/storefront-provider';
import { ApiProvider } from '@/components/shell/api-provider';
import { SkinPreviewLive } from '@/components/ops/skin-preview-live';
import GoodsDetailPage from '@/app/[channel]/[locale]/goods/detail/[saleId]/page';
// The store's own styles: this page is the store's views in a phone-sized frame of the console (issue 31), and only
// this page loads them (the console's other pages never do).
import '@/styles/globals.css';

type Props = { params: Promise<ConsoleChannelParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export const metadata: Metadata = { robots: { index: false, follow: false } };

/**
 * The skin editor's preview (issue 31, "Channels"): the channel's home or a goods page, rendered by the store's own
 * components with the DRAFT skin: the draft's images from the query (each held to what the skin may name), its colours
 * as CSS variables that the editor replaces by postMessage as the operator types. Only on the operator host, behind
 * operator sign-in and the channel's grant (lib/operator/host.ts: a channel host never reaches /ops/...), and never in
 * the store's page cache (the proxy caches channel hosts' pages only and answers the console no-store).
 */
export default async function SkinPreviewPage({ params, searchParams }: Props) {
  const { locale: consoleLocale } = await consoleWords(params);
  const { channel: row } = await requireConsoleChannel(params);
  const search = await searchParams;
  const channel = await previewChannel(getDb(), row, previewDraft(row, search), consoleLocale);
  const view = search.view === 'goods' ? 'goods' : 'home';
  const sales = await readSales(pageScope(channel), { pageCount: 1, pageSize: HOME_PAGE_SIZE });
  const sale = sales.records[0];
  return (
    <>
      <style>{skinRootCss(channel.skin)}</style>
      <SkinPreviewLive className="mx-auto min-h-dvh max-w-(--container-app) bg-skin-page text-skin-1" view={view}>
        <StorefrontProvider showAmount={channel.theme.showAmount}>
          <ApiProvider busyMessage={channel.t('api.busy')} locale={channel.locale}>
            {view === 'goods' && sale ? (
              <GoodsDetailPage params={Promise.resolve({ channel: channel.key, locale: channel.locale, saleId: sale.id })} />
            ) : (
              <HomeView channel={channel} page={sales} pageCount={1} />
            )}
          </ApiProvider>
        </StorefrontProvider>
      </SkinPreviewLive>
    </>
  );
}
