import { titledPage } from '@/lib/page/metadata';
import { openMineList, type SearchPageProps } from '@/lib/page/mine-list';
import { listOrders } from '@/lib/order/service';
import { ORDER_STATUS } from '@/lib/order/status';
import { formatFen } from '@/lib/format/money';
import { formatDate } from '@/lib/format/date';
import { Countdown } from '@/components/buy/countdown';
import { PayOrderButton } from '@/components/buy/pay-order-button';
import { CancelOrderButton } from '@/components/buy/cancel-order-button';
import { OrderStatusLabel } from '@/components/buy/order-status-label';
import { wayForward } from '@/lib/page/empty-action';
import { ClientMessages } from '@/components/shell/client-messages';
import { MineListPage } from '@/components/layout/mine-list-page';
import { CardList } from '@/components/ui/card-list';
import { RecordCard } from '@/components/ui/record-card';

const PAGE_SIZE = 10;

export const generateMetadata = titledPage(({ t }) => t('orders.title'));

/** /mine/records (spec §2 mineRecords, login required): the buyer's orders, newest first, paged; pay or cancel unpaid ones. */
export default async function OrderRecordsPage(props: SearchPageProps) {
  const { channel, scope, page } = await openMineList(props, '/mine/records');
  const orders = await listOrders(scope, { pageCount: page, pageSize: PAGE_SIZE });
  const { t, skin, theme } = channel;
  return (
    <MineListPage
      title={t('orders.title')}
      backLabel={t('goods.back')}
      pager={{ path: '/mine/records', page, pages: orders.pages, newer: t('home.back'), older: t('orders.more'), look: 'link' }}
    >
      <ClientMessages channel={channel} namespaces={['orders', 'common']}>
        <CardList
          items={orders.records}
          empty={{ art: 'orders', text: t('orders.empty'), action: wayForward(channel), 'data-testid': 'orders-empty' }}
          data-testid="orders"
        >
          {(o) => (
            <RecordCard
              key={o.orderNo}
              collectible={o.commodity}
              placeholderColor={skin.lightColor}
              href={`/goods/detail/${o.saleId}`}
              data-testid="order"
              data-order-no={o.orderNo}
              header={
                <div className="mb-2 flex items-center justify-between text-xs text-neutral-500">
                  <span className="truncate">
                    {t('orders.orderNo')} {o.orderNo}
                  </span>
                  <OrderStatusLabel order={o} t={t} />
                </div>
              }
              footer={
                <>
                  {o.editions.length > 0 ? (
                    <p className="mt-2 text-xs text-neutral-500">{o.editions.map((e) => `#${e.number}/${e.amountNumber}`).join(' · ')}</p>
                  ) : null}
                  {o.refunds.length > 0 ? (
                    // The order's refunds (issue 32): what came back, for which editions, when, and whether it is back yet.
                    <ul className="mt-2 space-y-0.5 text-xs text-neutral-600" data-testid="order-refunds">
                      {o.refunds.map((r) => (
                        <li key={r.time + r.amount} data-testid="order-refund">
                          {t('refunds.line', {
                            amount: formatFen(r.amount),
                            count: r.quantity,
                            numbers: r.numbers.length > 0 ? r.numbers.join(', #') : 'none',
                          })}{' '}
                          · {t(r.status === 'done' ? 'refunds.done' : 'refunds.owed')} ·{' '}
                          {formatDate(r.time, 'yyyy-MM-dd HH:mm', theme.timeZone)}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  {o.statusTrade === ORDER_STATUS.toPay ? (
                    <div className="mt-3 flex items-center justify-between gap-2 border-t border-black/5 pt-3">
                      <span className="shrink-0 text-xs text-neutral-500">
                        <Countdown until={o.expireTime} className="font-semibold text-skin-sign" />
                      </span>
                      <div className="flex min-w-0 gap-2 [&_button]:px-3 [&_button]:text-sm [&_button]:whitespace-nowrap">
                        <CancelOrderButton orderNo={o.orderNo} />
                        <PayOrderButton orderNo={o.orderNo} label={t('orders.pay')} size="md" />
                      </div>
                    </div>
                  ) : null}
                </>
              }
            >
              <p className="truncate text-base font-medium text-skin-1">{o.commodity.name}</p>
              <p className="text-xs text-neutral-500">{formatDate(o.createTime, 'yyyy-MM-dd HH:mm:ss', theme.timeZone)}</p>
              <p className="flex items-baseline justify-between text-sm text-neutral-600">
                <span>{t('orders.quantity', { count: o.quantity })}</span>
                {theme.showAmount ? (
                  <span className="font-semibold text-skin-1" data-testid="order-amount">
                    {formatFen(o.pricePay)}
                  </span>
                ) : null}
              </p>
            </RecordCard>
          )}
        </CardList>
      </ClientMessages>
    </MineListPage>
  );
}
