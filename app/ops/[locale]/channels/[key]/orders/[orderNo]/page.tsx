import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { clientIp } from '@/lib/server/client-ip';
import { formatFen } from '@/lib/format/money';
import { consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { lookAtOrder } from '@/lib/operator/buyer-views';
import type { TimelineEvent } from '@/lib/buyer/service';
import type { Translator } from '@/lib/i18n/translator';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelTabs } from '@/components/ops/channel-tabs';
import { OrderRefund } from '@/components/ops/order-refund';
import { refundPreview } from '@/lib/payment/refund';
import { CATALOGUES } from '@/lib/i18n/translator';
import { zonedTimeFormat, zoneName } from '@/lib/format/date';
import type { Metadata } from 'next';

type Props = { params: Promise<ConsoleChannelParams & { orderNo: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { t } = await consoleWords(params);
  const { orderNo } = await params;
  return { title: t('ops.buyers.orderTitle', { orderNo: orderNo.slice(0, 40) }) };
}

/**
 * An order of the channel (issue 32, "Orders and buyers"): its buyer (account number, phone masked but for owners) and
 * its timeline, oldest first: created, paid (provider and its transaction id), editions minted, cancelled or expired,
 * refunds. 404 for an order of another channel, as for one that does not exist. The look is audited.
 */
export default async function OrderPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  const { orderNo } = await params;
  const order = await lookAtOrder(
    { db: getDb(), operator, channelId: channel.id, ip: clientIp(await headers()), now: new Date() },
    channel.key,
    orderNo,
  );
  if (!order) notFound();
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium', timeZone: channel.timeZone || undefined });
  const zone = channel.timeZone || 'UTC';
  // The refund panel (which copies can be refunded and why not, and the refunds made) under the timeline.
  const preview = await refundPreview(getDb(), channel.id, order.orderNo);
  const refundTime = zonedTimeFormat(locale, channel.timeZone);
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <ChannelTabs t={t} channel={channel} current="orders" />
      <h2 className="text-xl font-semibold text-gray-900" data-testid="order-title">
        {t('ops.buyers.orderTitle', { orderNo: order.orderNo })}
      </h2>
      <dl className="mt-4 grid max-w-2xl grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="text-gray-600">{t('ops.buyers.state')}</dt>
        <dd data-testid="order-state">{t(`ops.buyers.orderState.${order.state}`)}</dd>
        <dt className="text-gray-600">{t('ops.buyers.buyer')}</dt>
        <dd>
          <Link href={`/channels/${channel.key}/buyers/${order.accountNumber}`} className="font-mono text-blue-800 underline">
            {order.accountNumber}
          </Link>
        </dd>
        <dt className="text-gray-600">{t('ops.buyers.phone')}</dt>
        <dd className="font-mono" data-testid="order-phone">
          {order.phone}
          {order.phoneMasked ? <span className="ml-2 font-sans text-xs text-gray-500">({t('ops.buyers.phoneMasked')})</span> : null}
        </dd>
        <dt className="text-gray-600">{t('ops.buyers.quantity')}</dt>
        <dd>{order.quantity}</dd>
        <dt className="text-gray-600">{t('ops.buyers.price')}</dt>
        <dd>{formatFen(order.price)}</dd>
        <dt className="text-gray-600">{t('ops.buyers.amount')}</dt>
        <dd>{formatFen(order.amount)}</dd>
      </dl>

      <h3 className="mt-8 text-base font-semibold text-gray-900">
        {t('ops.buyers.timeline')} <span className="text-sm font-normal text-gray-600">({zoneName(zone, locale)})</span>
      </h3>
      <ol className="mt-3 max-w-3xl space-y-2 border-l-2 border-gray-200 pl-4 text-sm" data-testid="order-timeline">
        {order.timeline.map((event, i) => (
          <li key={i} data-kind={event.kind}>
            <time dateTime={event.at.toISOString()} className="mr-3 text-gray-600 tabular-nums">
              {when.format(event.at)}
            </time>
            <span className="text-gray-900">{eventText(t, event)}</span>
          </li>
        ))}
      </ol>

      <div className="mt-10 max-w-3xl border-t border-gray-200 pt-6">
        <OrderRefund
          locale={locale}
          channel={channel.key}
          orderNo={preview.orderNo}
          state={preview.state}
          price={preview.price}
          paid={preview.paid}
          refunded={preview.refunded}
          copies={preview.copies}
          refunds={preview.refunds.map((r) => ({
            refundNo: r.refundNo,
            quantity: r.quantity,
            amount: r.amount,
            status: r.status,
            time: refundTime.format(r.createdAt),
            numbers: r.numbers,
          }))}
          canRefund={operator.role === 'owner' || operator.role === 'support'}
          words={CATALOGUES[locale].ops.refunds}
        />
      </div>
    </ConsoleShell>
  );
}

function eventText(t: Translator, event: TimelineEvent): string {
  switch (event.kind) {
    case 'created':
      return t('ops.buyers.event.created', { quantity: event.quantity, amount: formatFen(event.amount) });
    case 'paid':
      return t('ops.buyers.event.paid', {
        amount: formatFen(event.amount),
        provider: event.provider,
        transaction: event.transactionId ?? event.paymentNo,
      });
    case 'minted':
      return t('ops.buyers.event.minted', { commodity: event.commodity, edition: event.edition });
    case 'cancelled':
      return t('ops.buyers.event.cancelled');
    case 'expired':
      return t('ops.buyers.event.expired');
    case 'closed':
      return t('ops.buyers.event.closed', { reason: event.reason ?? '' });
    case 'refund':
      return t('ops.buyers.event.refund', {
        quantity: event.quantity,
        amount: formatFen(event.amount),
        status: event.status,
        reason: event.reason,
      });
  }
}
