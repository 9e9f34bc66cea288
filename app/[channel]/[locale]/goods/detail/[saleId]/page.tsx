import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { loadPageOdds, loadPageSale, type SalePageParams } from '@/lib/page/sale';
import type { SaleRecord } from '@/lib/sale/schema';
import { SALE_STATUS } from '@/lib/sale/status';
import { formatFen } from '@/lib/format/money';
import { formatDate } from '@/lib/format/date';
import { publicOrigin } from '@/lib/env';
import { OG_SIZE } from '@/lib/sale/og-card';
import { Avatar } from '@/components/ui/avatar';
import { CollectibleArt } from '@/components/ui/collectible-art';
import { PageHeader } from '@/components/layout/page-header';
import { SaleStatusBadge } from '@/components/sale/sale-status';
import type { BuyActionLabels } from '@/components/sale/buy-action-view';
import { BuyBar } from '@/components/sale/buy-bar';
import { OpenInApp } from '@/components/sale/open-in-app';
import { renderTime } from '@/lib/page/render-time';
import { appLinkFor } from '@/lib/client/deep-link';
import { slotArgs, toSlotted } from '@/lib/i18n/slots';
import type { Translator } from '@/lib/i18n/translator';
import { chainNameIn } from '@/lib/chain/names';
import { GoodsGallery } from '@/components/sale/goods-gallery';
import { Card } from '@/components/ui/card';
import { pageBuyRequirement } from '@/lib/page/identity';
import { verifyHref } from '@/components/identity/verify-href';
import { GoodsIdentityIsland } from '@/components/sale/goods-identity-island';
import { pageLottery } from '@/lib/page/lottery';
import { pickMessages } from '@/lib/i18n/pick-messages';
import { LotteryIsland } from '@/components/sale/lottery-island';
import { RouterLink } from '@/components/shell/router-link';
import { QueueIsland } from '@/components/sale/queue-island';
import { pageQueueRoom } from '@/lib/page/queue-room';
import { PriorityIsland } from '@/components/sale/priority-island';
import type { PriorityTexts } from '@/components/sale/priority-with-store';
import { publicPriority } from '@/lib/sale/priority';
import { pageScope } from '@/lib/page/channel';

type Props = { params: Promise<SalePageParams> };

function summaryOf(sale: SaleRecord): string {
  const text = sale.commodity.description.replace(/\s+/g, ' ').trim();
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/** Link previews for chat apps and crawlers: title, description, Open Graph, Twitter, on the channel's host. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { channel, sale } = await loadPageSale(params);
  const origin = publicOrigin(channel.publicHost);
  const url = `${origin}/goods/detail/${sale.id}`;
  // A PNG card: chat apps and social crawlers do not show SVG previews.
  const image = `${origin}/api/og/sale/${sale.id}`;
  const description = summaryOf(sale);
  return {
    title: sale.commodity.name,
    description,
    alternates: { canonical: url },
    openGraph: {
      type: 'website',
      url,
      siteName: channel.theme.brandName,
      title: sale.commodity.name,
      description,
      locale: channel.locale.replace('-', '_'),
      images: [{ url: image, width: OG_SIZE.width, height: OG_SIZE.height, alt: sale.commodity.name, type: 'image/png' }],
    },
    twitter: { card: 'summary_large_image', title: sale.commodity.name, description, images: [image] },
  };
}

const AVAILABILITY: Record<SaleRecord['statusSell'], string> = {
  [SALE_STATUS.COMING_SOON]: 'https://schema.org/PreOrder',
  [SALE_STATUS.ON_SALE]: 'https://schema.org/InStock',
  [SALE_STATUS.SOLD_OUT]: 'https://schema.org/SoldOut',
  [SALE_STATUS.ENDED]: 'https://schema.org/Discontinued',
};

function productJsonLd(sale: SaleRecord, origin: string, showAmount: boolean): string {
  const url = `${origin}/goods/detail/${sale.id}`;
  const product = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: sale.commodity.name,
    description: sale.commodity.description,
    image: [sale.commodity.cover, ...sale.commodity.actualPicture].map((src) => new URL(src, origin).toString()),
    sku: sale.id,
    brand: { '@type': 'Brand', name: sale.publisher.name },
    ...(showAmount
      ? {
          offers: {
            '@type': 'Offer',
            url,
            priceCurrency: 'CNY',
            price: (sale.price / 100).toFixed(2),
            availability: AVAILABILITY[sale.statusSell],
          },
        }
      : {}),
  };
  // Escape "<" so the description can never close the script element.
  return JSON.stringify(product).replace(/</g, '\\u003c');
}

/** Goods detail (spec §2 goodsDetail, open to everyone): everything a buyer needs before paying, server-rendered. */
export default async function GoodsDetailPage({ params }: Props) {
  const { channel, sale } = await loadPageSale(params);
  const { t, theme, skin } = channel;
  const tz = theme.timeZone;
  const odds = await loadPageOdds(channel, sale);
  // issue 33: what the channel asks to buy this (the same for every visitor; the buyer's own state is the browser's).
  const requirement = await pageBuyRequirement(channel, sale);
  // issue 35: a lottery sale shows its window, its draw and, in the buy bar, the buyer's standing (read in the browser).
  const lottery = await pageLottery(channel.id, sale.id);
  const lotteryBar = lottery !== null && statusSellOpen(sale.statusSell);
  // A sale through a waiting room is bought from its card, with the buyer's admission: the bar points there.
  const queueBar = statusSellOpen(sale.statusSell) && (await pageQueueRoom(channel.id, sale.id)) !== null;
  // issue 35: a sale with priority purchase says so under its status; before its opening, the buy bar reads the buyer's
  // standing in the browser (./priority-island) and opens early to an eligible buyer.
  const priority = await publicPriority(pageScope({ id: channel.id }).db, channel.id, Number(sale.id));
  const priorityBar = priority !== null && sale.statusSell === SALE_STATUS.COMING_SOON && !sale.paused && !lotteryBar && !queueBar;
  const gallery = sale.commodity.actualPicture.filter((src) => src !== sale.commodity.cover);
  const renderedAt = renderTime();
  const { statusSell, saleStartTime, saleEndTime, amountAvailable } = sale;

  // A time or a date range breaks between its parts, never inside a date (issue 17, item 11).
  const unbroken = (text: string) => <span className="whitespace-nowrap">{text}</span>;
  const facts: [string, ReactNode, string?][] = [
    [t('goods.editionSize'), t('goods.editionCount', { count: sale.commodity.amountSku }), 'edition-size'],
    [t('goods.stockLeft'), t('goods.stockCount', { count: sale.amountAvailable, total: sale.amount }), 'stock-left'],
    [t('goods.limit'), t('goods.limitCount', { count: sale.limitPerUser })],
    [
      t('goods.saleWindow'),
      <>
        {unbroken(formatDate(sale.saleStartTime, 'yyyy-MM-dd HH:mm', tz))} –{' '}
        {unbroken(sale.saleEndTime ? formatDate(sale.saleEndTime, 'yyyy-MM-dd HH:mm', tz) : t('goods.noEnd'))}
      </>,
      'sale-window',
    ],
    [t('goods.publisher'), sale.publisher.name],
    ...(sale.seriesWorks ? [[t('goods.series'), sale.seriesWorks.name] as [string, string]] : []),
    [t('goods.chain'), chainNameIn(sale.commodity.chainName, t), 'chain-name'],
    [t('goods.contract'), sale.commodity.chainContract],
  ];

  return (
    <>
      <script
        type="application/ld+json"
        dangerouslySetInnerHTML={{ __html: productJsonLd(sale, publicOrigin(channel.publicHost), theme.showAmount) }}
      />
      <PageHeader title={t('route.goodsDetail')} backLabel={t('goods.back')} />
      {/* The buy bar is taller with the channel's real-name line in it (issue 33): the page's end stays above it. */}
      <main
        className={
          lotteryBar || priorityBar
            ? requirement.realName
              ? 'pb-[3.2rem]'
              : 'pb-[2.4rem]'
            : requirement.realName
              ? 'pb-[2.4rem]'
              : 'pb-[1.6rem]'
        }
      >
        <GoodsGallery
          collectible={{ cover: sale.commodity.cover, name: sale.commodity.name }}
          pictures={gallery}
          galleryLabel={t('goods.gallery')}
          openLabel={t('viewer.open', { name: sale.commodity.name })}
          viewerLabel={t('viewer.label')}
          closeLabel={t('viewer.close')}
          placeholderColor={skin.lightColor}
        />

        <Card as="section" className="mx-3 mt-3 p-4">
          <div className="flex items-start justify-between gap-3">
            <h1 className="text-xl font-semibold text-skin-1">{sale.commodity.name}</h1>
            <SaleStatusBadge t={t} sale={sale} renderedAt={renderedAt} timeZone={tz} />
          </div>
          {priority && (
            <p className="mt-2 text-sm leading-relaxed text-neutral-600" data-testid="priority-line">
              {priorityLine(t, channel.locale, priority, tz)}
            </p>
          )}
          {theme.showAmount && (
            <p
              className="mt-2 text-2xl font-bold text-skin-sign"
              data-testid="goods-price"
              aria-label={`${t('goods.price')} ${formatFen(sale.price)}`}
            >
              {formatFen(sale.price)}
            </p>
          )}
          <div className="mt-3 flex items-center gap-2">
            <Avatar src={sale.author.cover} size="0.56rem" placeholderColor={skin.lightColor} afterScripts />
            <p className="text-sm text-neutral-600">
              <span className="sr-only">{t('goods.author')}: </span>
              <span data-testid="goods-author">{sale.author.name}</span>
            </p>
            <span className="ml-auto" />
            {/* issue 36: sharing, a plain link to the share page (copy, the system sheet, the poster): no script here. */}
            <a
              href={`/share/goods/${sale.id}`}
              className="inline-flex h-[0.56rem] items-center rounded-full border border-black/10 px-3 text-sm font-medium text-skin-1 active:scale-95 motion-reduce:active:scale-100"
              data-testid="goods-share"
            >
              {t('share.action')}
            </a>
            <OpenInApp
              link={appLinkFor(theme, `/goods/detail/${sale.id}`)}
              label={t('goods.openInApp')}
              notOpened={t('goods.appNotOpened', { brand: theme.brandName })}
              inWechat={t('wxTip.openApp', { brand: theme.brandName })}
            />
          </div>
        </Card>

        {/* issue 35: a sale through a waiting room shows it here (nothing for other sales). */}
        <QueueIsland channel={channel} sale={sale} />

        <Card as="section" className="mx-3 mt-3 p-4">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2.5 text-sm">
            {facts.map(([label, value, testId]) => (
              <div key={label} className="contents">
                <dt className="text-neutral-500">{label}</dt>
                <dd className="min-w-0 text-right break-words text-skin-1" data-testid={testId}>
                  {value}
                </dd>
              </div>
            ))}
            {/* An address reads as one string: on a line of its own, in a monospace face that fits a phone's width,
                never broken in the middle (issue 17, item 11). */}
            <dt className="col-span-2 text-neutral-500">{t('goods.contractAddress')}</dt>
            <dd
              className="col-span-2 -mt-1.5 overflow-x-auto font-mono text-[0.22rem] whitespace-nowrap text-skin-1"
              data-testid="contract-address"
            >
              {sale.commodity.contractAddress}
            </dd>
          </dl>
        </Card>

        {lottery && (
          <Card as="section" className="mx-3 mt-3 p-4" aria-labelledby="lottery-heading" data-testid="lottery-facts">
            <h2 id="lottery-heading" className="mb-2 text-base font-semibold text-skin-1">
              {t('lottery.heading')}
            </h2>
            <p className="mb-3 text-sm leading-relaxed text-neutral-600">
              {t('lottery.explain', { copies: lottery.copies, minutes: lottery.purchaseWindowMinutes })}
            </p>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2.5 text-sm">
              <dt className="text-neutral-500">{t('lottery.registration')}</dt>
              <dd className="min-w-0 text-right text-skin-1" data-testid="lottery-window">
                {unbroken(formatDate(lottery.registrationOpensAt, 'yyyy-MM-dd HH:mm', tz))} –{' '}
                {unbroken(formatDate(lottery.registrationClosesAt, 'yyyy-MM-dd HH:mm', tz))}
              </dd>
              <dt className="text-neutral-500">{t('lottery.draw')}</dt>
              <dd className="min-w-0 text-right text-skin-1" data-testid="lottery-draw-at">
                {unbroken(formatDate(lottery.drawAt, 'yyyy-MM-dd HH:mm', tz))}
              </dd>
              <dt className="text-neutral-500">{t('lottery.purchaseWindow')}</dt>
              <dd className="min-w-0 text-right text-skin-1">{t('lottery.purchaseMinutes', { minutes: lottery.purchaseWindowMinutes })}</dd>
            </dl>
            <RouterLink
              href={`/lottery/${sale.id}`}
              className="mt-3 inline-block text-sm font-semibold text-skin-1 underline underline-offset-2"
              data-testid="lottery-verify-link"
            >
              {t('lottery.verifyLink')}
            </RouterLink>
          </Card>
        )}

        {odds.length > 0 && (
          <Card as="section" className="mx-3 mt-3 p-4" aria-labelledby="odds-heading">
            <h2 id="odds-heading" className="mb-3 text-base font-semibold text-skin-1">
              {t('goods.odds')}
            </h2>
            <ul className="flex flex-col gap-2" data-testid="blind-box-odds">
              {odds.map((o) => (
                <li key={o.name} className="flex items-center gap-3 text-sm">
                  <CollectibleArt collectible={o} width="0.8rem" placeholderColor={skin.lightColor} />
                  <span className="flex-1 text-skin-1">{o.name}</span>
                  <span className="font-semibold text-skin-1">{o.percent}</span>
                  {o.value !== null && (
                    // issue 32: the blind-box guideline asks for each prize's value beside its odds.
                    <span className="text-neutral-500" data-testid="prize-value">
                      {t('salesStore.prizeValue', { value: formatFen(o.value) })}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </Card>
        )}

        <Card as="section" className="mx-3 mt-3 p-4" aria-labelledby="about-heading">
          <h2 id="about-heading" className="mb-2 text-base font-semibold text-skin-1">
            {t('goods.description')}
          </h2>
          <p className="text-sm leading-relaxed whitespace-pre-line text-neutral-600">{sale.commodity.description}</p>
        </Card>
      </main>

      <div className="fixed inset-x-0 bottom-0 z-20 mx-auto flex max-w-(--container-app) flex-col gap-2 border-t border-black/5 bg-skin-card px-4 py-2.5 pb-[max(0.2rem,env(safe-area-inset-bottom))]">
        {requirement.realName && statusSell !== SALE_STATUS.SOLD_OUT && statusSell !== SALE_STATUS.ENDED ? (
          // Only where a rule applies: a channel that asks nothing ships no new script with its shared page, not even
          // the client store the notice reads the buyer's phone from (issue 34: loaded with it, when rendered).
          <GoodsIdentityIsland
            showAmount={theme.showAmount}
            rule={requirement.minAge ? t('identity.ruleAge', { age: requirement.minAge }) : t('identity.ruleRealName')}
            notice={requirement.minAge ? t('identity.noticeAge', { age: requirement.minAge }) : t('identity.noticeRealName')}
            verify={{ href: verifyHref(`/goods/detail/${sale.id}`), label: t('identity.verifyNow') }}
            ageAsked={requirement.minAge !== null}
          />
        ) : null}
        {priority && priorityBar ? (
          <PriorityIsland
            saleId={sale.id}
            sale={{ statusSell, saleStartTime, saleEndTime, amountAvailable }}
            decideAt={priority.decideAt}
            renderedAt={renderedAt}
            labels={buyActionLabels(t, saleStartTime, tz)}
            texts={priorityTexts(t, priority, tz)}
            showAmount={theme.showAmount}
            bar={
              <BuyBar
                sale={{ statusSell, saleStartTime, saleEndTime, amountAvailable }}
                saleId={sale.id}
                renderedAt={renderedAt}
                labels={buyActionLabels(t, saleStartTime, tz)}
              />
            }
          >
            {theme.showAmount && <span className="shrink-0 text-lg font-bold text-skin-sign">{formatFen(sale.price)}</span>}
          </PriorityIsland>
        ) : (
          <div className="flex items-center gap-3">
            {theme.showAmount && <span className="shrink-0 text-lg font-bold text-skin-sign">{formatFen(sale.price)}</span>}
            {lottery && lotteryBar ? (
              <LotteryIsland
                saleId={sale.id}
                times={lottery}
                timeZone={tz}
                locale={channel.locale}
                messages={pickMessages(channel.locale, ['lottery'])}
                showAmount={theme.showAmount}
                renderedAt={renderedAt}
                verify={{ href: verifyHref(`/goods/detail/${sale.id}`), label: t('identity.verifyNow') }}
                identityShown={requirement.realName}
              />
            ) : queueBar ? (
              <a
                href="#queue"
                data-testid="buy-button"
                className="flex h-[0.88rem] flex-1 items-center justify-center rounded-full border border-skin-button text-base font-semibold whitespace-nowrap text-skin-1"
              >
                {t('queue.barHint')}
              </a>
            ) : sale.paused && statusSell === SALE_STATUS.ON_SALE ? (
              // issue 32, "Drop-day controls": its operator paused buying; a buy would be refused, so the button says why.
              <span
                data-testid="buy-button"
                aria-disabled="true"
                className="flex h-[0.88rem] flex-1 items-center justify-center rounded-full bg-neutral-200 text-base font-semibold whitespace-nowrap text-neutral-500"
              >
                {t('salesStore.paused')}
              </span>
            ) : (
              <BuyBar
                sale={{ statusSell, saleStartTime, saleEndTime, amountAvailable }}
                saleId={sale.id}
                renderedAt={renderedAt}
                labels={buyActionLabels(t, saleStartTime, tz)}
              />
            )}
          </div>
        )}
      </div>
    </>
  );
}

/** A lottery sale's bar shows the buyer's standing until the sale is sold out or over (then the buy bar says so). */
function statusSellOpen(status: SaleRecord['statusSell']): boolean {
  return status !== SALE_STATUS.SOLD_OUT && status !== SALE_STATUS.ENDED;
}

type PublicPriority = NonNullable<Awaited<ReturnType<typeof publicPriority>>>;

/** "Priority purchase: eligible buyers can buy from 12-01 19:50, 10 minutes early — holders of X or invited buyers". */
function priorityLine(t: Translator, locale: string, p: PublicPriority, tz: string): string {
  const or = new Intl.ListFormat(locale, { type: 'disjunction' });
  const rules = [
    ...(p.holderCollectibleNames.length > 0 ? [t('priority.holders', { names: or.format(p.holderCollectibleNames) })] : []),
    ...(p.minPaidOrders !== null ? [t('priority.orders', { count: p.minPaidOrders })] : []),
    ...(p.hasWhitelist ? [t('priority.invited')] : []),
  ];
  return t('priority.line', {
    time: formatDate(p.opensAt, 'MM-dd HH:mm', tz),
    minutes: p.minutesEarly,
    rules: or.format(rules),
  });
}

/** The priority bar's texts, with the times in the channel's zone (the buyer's standing picks one in the browser). */
function priorityTexts(t: Translator, p: PublicPriority, tz: string): PriorityTexts {
  const at = (iso: string) => formatDate(iso, 'MM-dd HH:mm', tz);
  return {
    decidesAt: t('priority.decidesAt', { time: at(p.decideAt) }),
    eligible: t('priority.eligible', { time: at(p.opensAt) }),
    notEligible: t('priority.notEligible', { time: at(p.saleStartsAt) }),
    logIn: t('priority.logIn'),
    earlyOpensAt: t('priority.earlyOpensAt', { time: at(p.opensAt) }),
  };
}

/** The buy bar's texts in the channel's language (the countdown's slots are filled in the browser). */
function buyActionLabels(t: Translator, saleStartTime: string, tz: string): BuyActionLabels {
  return {
    buy: t('goods.buy'),
    soldOut: t('goods.soldOut'),
    ended: t('goods.ended'),
    opensAt: t('goods.opensAt', { time: formatDate(saleStartTime, 'MM-dd HH:mm', tz) }),
    opensIn: toSlotted(t('goods.opensIn', slotArgs('countdown'))),
    days: toSlotted(t('goods.countdownDays', slotArgs('days', 'clock'))),
    opened: {
      [SALE_STATUS.COMING_SOON]: t('status.comingSoon'),
      [SALE_STATUS.ON_SALE]: t('status.onSale'),
      [SALE_STATUS.SOLD_OUT]: t('status.soldOut'),
      [SALE_STATUS.ENDED]: t('status.ended'),
    },
  };
}
