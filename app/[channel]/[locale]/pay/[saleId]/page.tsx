import { redirect } from 'next/navigation';
import { loadPageChannel } from '@/lib/page/channel';
import { titledPage } from '@/lib/page/metadata';
import { pageSale, type SalePageParams } from '@/lib/page/sale';
import { pagePayOptions } from '@/lib/page/pay';
import { SALE_STATUS } from '@/lib/sale/status';
import { formatFen } from '@/lib/format/money';
import { formatDate } from '@/lib/format/date';
import { env } from '@/lib/env';
import { PageHeader } from '@/components/layout/page-header';
import { CollectibleArt } from '@/components/ui/collectible-art';
import { PayPanel } from '@/components/buy/pay-panel';
import { Card } from '@/components/ui/card';
import { ClientMessages } from '@/components/shell/client-messages';
import { verifyHref } from '@/components/identity/identity-notice';
import { getDb } from '@/lib/db/client';
import { publicPriority } from '@/lib/sale/priority';
import { renderTime } from '@/lib/page/render-time';
import { pageQueueRoom } from '@/lib/page/queue-room';

type Props = { params: Promise<SalePageParams> };

export const generateMetadata = titledPage(({ t }) => t('route.payNow'));

/**
 * /pay/:saleId (spec §2 pay, login required): what is bought, the price and total (hidden where the channel hides
 * amounts), quantity within the per-user limit, the sales terms, the way to pay when more than one fits the buyer's
 * browser, "pay now". A sold-out sale sends late buyers to /sellout.
 *
 * issue 34: this render is the same for every buyer and is served from the rendered-page cache per channel, sale and
 * language (docs/caching.md), so it reads no session and nothing of one buyer. The login guard runs before it in the
 * proxy (the session cookie's claims); the buyer's quota, unpaid order, real-name standing (issue 33) and WeChat
 * identity come from `saleRecord/payState` in the browser (components/buy/pay-panel.tsx).
 *
 * issue 35, priority purchase: from a sale's early opening the page offers to pay, as it does once the sale opened, so
 * an eligible buyer can buy; it is the same page for everyone, and order/create tells everyone else the sale's opening.
 *
 * issue 35, the waiting room: whether the sale goes through one is read like the sale (cached, the same for everyone);
 * whether this buyer holds an admission is read in the browser (components/buy/pay-admission.tsx).
 */
export default async function PayPage({ params }: Props) {
  const channel = await loadPageChannel(params);
  const { saleId } = await params;
  const sale = await pageSale(channel, saleId);
  if (sale.statusSell === SALE_STATUS.SOLD_OUT) redirect('/sellout');
  const { t, theme, skin } = channel;
  const max = Math.max(1, Math.min(sale.limitPerUser, sale.amountAvailable));
  const options = await pagePayOptions(channel);
  const early = sale.statusSell === SALE_STATUS.COMING_SOON && (await priorityWindowOpen(channel.id, Number(sale.id), renderTime()));
  const open = sale.statusSell === SALE_STATUS.ON_SALE || early;
  const waitingRoom = open && (await pageQueueRoom(channel.id, sale.id)) !== null;
  return (
    <>
      <PageHeader title={t('pay.title')} backHref={`/goods/detail/${sale.id}`} backLabel={t('goods.back')} />
      <main className="flex flex-col gap-3 px-3 pt-3 pb-[1.6rem]">
        <Card as="section" className="flex gap-3 p-3" data-testid="pay-item">
          <CollectibleArt collectible={sale.commodity} width="1.6rem" placeholderColor={skin.lightColor} />
          <div className="flex min-w-0 flex-col justify-between py-0.5">
            <div>
              <h2 className="truncate text-base font-semibold text-skin-1">{sale.commodity.name}</h2>
              <p className="text-xs text-neutral-500">{t('home.edition', { count: sale.commodity.amountSku })}</p>
            </div>
            <div className="flex items-baseline gap-2">
              {theme.showAmount ? (
                <span className="text-lg font-bold text-skin-sign" data-testid="pay-price">
                  {formatFen(sale.price)}
                </span>
              ) : null}
              <span className="text-xs text-neutral-500" data-testid="pay-left">
                {t('pay.left', { count: sale.amountAvailable })}
              </span>
            </div>
          </div>
        </Card>

        {open ? (
          <>
            <ClientMessages channel={channel} namespaces={['pay']}>
              <PayPanel
                saleId={sale.id}
                price={sale.price}
                max={max}
                limit={sale.limitPerUser}
                showAmount={theme.showAmount}
                options={options}
                verify={{ href: verifyHref(`/pay/${sale.id}`), label: t('identity.verifyNow') }}
                waitingRoom={waitingRoom}
              />
            </ClientMessages>
            <p className="px-1 text-xs leading-relaxed text-neutral-500">
              {t('pay.payWithin', { minutes: Math.round(env().ORDER_PAY_TIMEOUT_SECONDS / 60) })}
            </p>
          </>
        ) : (
          <Card as="p" className="p-4 text-center text-base text-skin-1" data-testid="pay-unavailable">
            {sale.statusSell === SALE_STATUS.COMING_SOON
              ? t('pay.opensAt', { time: formatDate(sale.saleStartTime, 'yyyy-MM-dd HH:mm', theme.timeZone) })
              : t('pay.ended')}
          </Card>
        )}
      </main>
    </>
  );
}

/** Whether the sale's priority purchase (issue 35, lib/sale/priority.ts) has opened to its eligible buyers at `now`. */
async function priorityWindowOpen(channelId: number, saleId: number, now: number): Promise<boolean> {
  if (!Number.isSafeInteger(saleId)) return false;
  const priority = await publicPriority(getDb(), channelId, saleId);
  return priority !== null && now >= Date.parse(priority.opensAt);
}
