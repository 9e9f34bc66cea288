import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { CATALOGUES } from '@/lib/i18n/translator';
import { AppError } from '@/lib/procedure/errors';
import { refundPreview, type RefundPreview } from '@/lib/payment/refund';
import { consoleTitled, consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { ConsoleShell } from '@/components/ops/console-shell';
import { OrderRefund } from '@/components/ops/order-refund';

type Props = { params: Promise<ConsoleChannelParams & { orderNo: string }> };

export const generateMetadata = consoleTitled((t) => t('ops.refunds.history'));

/**
 * An order's refund page (issue 32, "Orders and buyers"): the refund panel on a page of its own until the order page
 * lands (the panel is mounted there at merge). Everyone on the channel sees it; owners and support refund. An order
 * of another channel is not found here, like a channel the operator does not work on.
 */
export default async function OrderRefundPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  const { orderNo } = await params;
  if (!/^[A-Za-z0-9-]{1,64}$/.test(orderNo)) notFound();
  let preview: RefundPreview;
  try {
    preview = await refundPreview(getDb(), channel.id, orderNo);
  } catch (error) {
    if (error instanceof AppError && error.code === 404) notFound();
    throw error;
  }
  const when = new Intl.DateTimeFormat(locale, {
    // Fields, not dateStyle/timeStyle: those cannot be combined with the zone's name, which the brief asks shown.
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: channel.timeZone || undefined,
    timeZoneName: 'short',
  });
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
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
          time: when.format(r.createdAt),
          numbers: r.numbers,
        }))}
        canRefund={operator.role === 'owner' || operator.role === 'support'}
        words={CATALOGUES[locale].ops.refunds}
      />
    </ConsoleShell>
  );
}
