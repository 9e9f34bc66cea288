import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { CATALOGUES } from '@/lib/i18n/translator';
import { AppError } from '@/lib/procedure/errors';
import { cancelProgress, type CancelProgress } from '@/lib/payment/sale-cancel';
import { consoleTitled, consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { ConsoleShell } from '@/components/ops/console-shell';
import { SaleCancel } from '@/components/ops/sale-cancel';

type Props = { params: Promise<ConsoleChannelParams & { saleId: string }> };

export const generateMetadata = consoleTitled((t) => t('ops.refunds.cancel'));

/**
 * Cancelling a sale (issue 32, "Drop-day controls"): the button and the background refunds' progress, on a page of its
 * own until the sale page lands (mounted there at merge). Owners and managers cancel; everyone on the channel sees it.
 */
export default async function SaleCancelPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  const { saleId } = await params;
  if (!/^[1-9][0-9]{0,9}$/.test(saleId) || Number(saleId) > 2_147_483_647) notFound();
  let progress: CancelProgress;
  try {
    progress = await cancelProgress(getDb(), channel.id, Number(saleId));
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
      <SaleCancel
        locale={locale}
        channel={channel.key}
        saleId={Number(saleId)}
        code={progress.code}
        initial={{ ...progress, cancelledAt: progress.cancelledAt ? when.format(progress.cancelledAt) : null }}
        canCancel={operator.role === 'owner' || operator.role === 'manager'}
        words={CATALOGUES[locale].ops.refunds}
      />
    </ConsoleShell>
  );
}
