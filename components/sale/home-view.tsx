import Link from 'next/link';
import type { PageChannel } from '@/lib/page/channel';
import type { Page } from '@/lib/procedure/paging';
import type { SaleRecord } from '@/lib/sale/schema';
import { renderTime } from '@/lib/page/render-time';
import { ArtImage } from '@/components/ui/art-image';
import { FooterNav } from '@/components/layout/footer-nav';
import { SaleCard } from '@/components/sale/sale-card';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ChannelBanner } from '@/components/layout/channel-banner';
import { channelView } from '@/components/layout/channel-view';

/**
 * The home page's body (spec §2 home): the channel's banner, brand and sales list, with the footer. `featured`: the
 * sale a shared home link opened on (spec §2 detail, /detail/:id; docs/decisions.md), shown first, above the list.
 */
export function HomeView({
  channel,
  page,
  pageCount,
  featured = null,
}: {
  channel: PageChannel;
  page: Page<SaleRecord>;
  pageCount: number;
  featured?: SaleRecord | null;
}) {
  const { t, theme, skin } = channel;
  const records = featured ? page.records.filter((sale) => sale.id !== featured.id) : page.records;
  // Coming-soon badges count down in the browser from the sale's times; their first render matches this one's.
  const renderedAt = renderTime();
  return (
    <>
      <main className="pb-[1.4rem]">
        <h1 className="sr-only">{channel.title}</h1>
        <ChannelBanner src={skin.bannerImg} brandName={theme.brandName} placeholderColor={skin.color1} />
        <Card as="section" className="relative mx-3 -mt-6 flex items-center gap-3 p-3">
          <ArtImage
            src={skin.brandImg}
            alt=""
            width={240}
            height={80}
            sizes="1.2rem"
            className="w-[1.6rem] shrink-0"
            placeholderColor={skin.lightColor}
          />
          <div className="min-w-0">
            <p className="truncate text-base font-semibold text-skin-1">{theme.brandName}</p>
            {theme.marketText && <p className="truncate text-xs text-neutral-500">{theme.marketText}</p>}
          </div>
        </Card>

        {featured && (
          <section aria-labelledby="featured-heading" className="px-3 pt-5" data-testid="featured-sale">
            <h2 id="featured-heading" className="mb-3 text-lg font-semibold text-skin-1">
              {t('home.featured')}
            </h2>
            <ul className="grid grid-cols-2 gap-3">
              <SaleCard sale={featured} showAmount={theme.showAmount} renderedAt={renderedAt} priority {...channelView(channel)} />
            </ul>
          </section>
        )}
        <section aria-labelledby="sales-heading" className="px-3 pt-5">
          <h2 id="sales-heading" className="mb-3 text-lg font-semibold text-skin-1">
            {t('home.sales')}
          </h2>
          {records.length === 0 ? (
            <EmptyState art="sales" data-testid="sales-empty">
              {t('home.empty')}
            </EmptyState>
          ) : (
            <ul className="grid grid-cols-2 gap-3" data-testid="sale-list">
              {records.map((sale, i) => (
                <SaleCard
                  key={sale.id}
                  sale={sale}
                  showAmount={theme.showAmount}
                  renderedAt={renderedAt}
                  priority={!featured && i < 2}
                  {...channelView(channel)}
                />
              ))}
            </ul>
          )}
          {page.pages > 1 && (
            <nav className="mt-4 flex justify-center gap-3 text-sm">
              {pageCount > 1 && (
                <Link className="rounded-full bg-skin-card px-4 py-2 shadow-card" href={`/?page=${pageCount - 1}`}>
                  {t('home.back')}
                </Link>
              )}
              {pageCount < page.pages && (
                <Link className="rounded-full bg-skin-card px-4 py-2 shadow-card" href={`/?page=${pageCount + 1}`}>
                  {t('home.more')}
                </Link>
              )}
            </nav>
          )}
        </section>
      </main>
      <FooterNav labels={channel.labels} attributes={channel.theme.attributes} current="home" t={t} />
    </>
  );
}
