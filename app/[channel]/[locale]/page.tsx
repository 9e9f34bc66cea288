import Link from 'next/link';
import { loadPageChannel, pageScope, type PageParams } from '@/lib/page/channel';
import { readSales } from '@/lib/page/cached-reads';
import { MAX_PAGE } from '@/lib/procedure/paging';
import { ArtImage } from '@/components/ui/art-image';
import { FooterNav } from '@/components/layout/footer-nav';
import { SaleCard } from '@/components/sale/sale-card';
import { Card } from '@/components/ui/card';

const PAGE_SIZE = 20;

type Props = { params: Promise<PageParams>; searchParams: Promise<{ page?: string | string[] }> };

/** Home (spec §2): the channel's banner, brand and sales list, with the footer. */
export default async function HomePage({ params, searchParams }: Props) {
  const channel = await loadPageChannel(params);
  const { t, theme, skin } = channel;
  const requested = Number((await searchParams).page);
  const pageCount = Number.isInteger(requested) && requested > 0 ? Math.min(requested, MAX_PAGE) : 1;
  const page = await readSales(pageScope(channel), { pageCount, pageSize: PAGE_SIZE });

  return (
    <>
      <main className="pb-[1.4rem]">
        <h1 className="sr-only">{channel.title}</h1>
        <ArtImage
          src={skin.bannerImg}
          alt={theme.brandName}
          width={750}
          height={360}
          sizes="(max-width: 450px) 100vw, 450px"
          className="w-full"
          priority
          placeholderColor={skin.color1}
        />
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

        <section aria-labelledby="sales-heading" className="px-3 pt-5">
          <h2 id="sales-heading" className="mb-3 text-lg font-semibold text-skin-1">
            {t('home.sales')}
          </h2>
          {page.records.length === 0 ? (
            <p className="rounded-xl bg-skin-card p-6 text-center text-sm text-neutral-500">{t('home.empty')}</p>
          ) : (
            <ul className="grid grid-cols-2 gap-3" data-testid="sale-list">
              {page.records.map((sale, i) => (
                <SaleCard
                  key={sale.id}
                  sale={sale}
                  t={t}
                  showAmount={theme.showAmount}
                  timeZone={theme.timeZone}
                  placeholderColor={skin.lightColor}
                  priority={i < 2}
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
