import { notFound } from 'next/navigation';
import { and, asc, count as countRows, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { commodities, saleAllocations, salePriorityWhitelist, sales } from '@/lib/db/schema';
import { publicOrigin } from '@/lib/env';
import { findAdminSale } from '@/lib/sale/admin';
import { consoleTitled, consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { saleWords } from '@/lib/page/console-sales';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelTabs } from '@/components/ops/channel-tabs';
import { SaleControls, SaleForm } from '@/components/ops/sale-forms';
import { zoneText } from '@/components/ops/sale-time';
import { SaleCancel } from '@/components/ops/sale-cancel';
import { SaleLottery, type LotteryConsoleView, type LotteryResult } from '@/components/ops/sale-lottery';
import type { QueueConsoleView } from '@/components/ops/sale-queue';
import { findLottery, publishedLottery } from '@/lib/sale/lottery';
import { findQueue } from '@/lib/sale/queue';
import { wireDates } from '@/lib/procedure/wire-dates';
import { SalePriority, type PriorityConsoleView } from '@/components/ops/sale-priority';
import { findPriority } from '@/lib/sale/priority';
import { cancelProgress } from '@/lib/payment/sale-cancel';
import { CATALOGUES } from '@/lib/i18n/translator';
import { zonedTimeFormat } from '@/lib/format/date';

type Props = { params: Promise<ConsoleChannelParams & { code: string }> };

export const generateMetadata = consoleTitled((t) => t('ops.sales.editTitle'));

/**
 * One sale (issue 32, "Sales" and "Drop-day controls"): its status and copies, its edit form (price, limit and opening
 * time read-only with the reason once it has orders), pause and resume, add copies, archive or delete, and a link to its
 * store page, which shows before the sale opens. Its allocation (issue 35): first come, a waiting room with its settings
 * and the buyers joined, or a lottery with its setup, commitment, registrants, draw and result. Its priority purchase
 * (issue 35): minutes early, the rules, the decision's time and the whitelist, read-only with the eligible count once
 * decided.
 */
export default async function SalePage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  const { code } = await params;
  const db = getDb();
  const now = new Date();
  const [row] = /^[a-z0-9][a-z0-9-]{0,63}$/.test(code)
    ? await db
        .select({ id: sales.id, collectible: commodities.code })
        .from(sales)
        .innerJoin(commodities, eq(commodities.id, sales.commodityId))
        .where(and(eq(sales.channelId, channel.id), eq(sales.code, code)))
    : [];
  const sale = row ? await findAdminSale(db, channel.id, row.id, now) : null;
  if (!row || !sale) notFound();
  const canWrite = (operator.role === 'owner' || operator.role === 'manager') && !sale.archivedAt;
  const zone = channel.timeZone;
  const count = new Intl.NumberFormat(locale);
  const words = saleWords(t, zone);
  // Cancelling the sale (drop-day control): the button, then the background refunds' progress.
  const cancel = await cancelProgress(db, channel.id, sale.id);
  const cancelTime = zonedTimeFormat(locale, zone);
  // The lottery (issue 35), as the console's call answers it, and once drawn its published winners and waitlist.
  const lottery = await findLottery(db, channel.id, sale.id, now);
  const lotteryView: LotteryConsoleView | null = lottery
    ? {
        copies: lottery.copies,
        registrationOpensAt: lottery.registrationOpensAt.toISOString(),
        registrationClosesAt: lottery.registrationClosesAt.toISOString(),
        drawAt: lottery.drawAt.toISOString(),
        purchaseWindowMinutes: lottery.purchaseWindowMinutes,
        publicValueSource: lottery.publicValueSource,
        commitment: lottery.commitment,
        frozen: lottery.frozen,
        registrants: lottery.registrants,
        drawnAt: lottery.drawnAt?.toISOString() ?? null,
        publicValue: lottery.publicValue,
        listHash: lottery.listHash,
        rounds: lottery.rounds,
      }
    : null;
  const published = lottery?.drawnAt ? (await publishedLottery({ db, now, channelId: channel.id }, sale.id)).draw : null;
  // The waiting room (issue 35), as the console's call answers it.
  const queue = await findQueue(db, channel.id, sale.id, now);
  const queueView: QueueConsoleView | null = queue ? wireDates(queue) : null;
  const lotteryResult: LotteryResult | null = published ? { winners: published.winners, waitlist: published.waitlist.length } : null;
  // Priority purchase (issue 35): first-come sales only (no lottery, no waiting room), holders picked from the channel's
  // collectibles.
  const [allocation] = await db.select({ mode: saleAllocations.mode }).from(saleAllocations).where(eq(saleAllocations.saleId, sale.id));
  const found = await findPriority(db, channel.id, sale.id);
  const priority: PriorityConsoleView | null = found
    ? {
        ...found,
        decideAt: found.decideAt.toISOString(),
        decidedAt: found.decidedAt?.toISOString() ?? null,
        opensAt: found.opensAt.toISOString(),
        saleStartsAt: found.saleStartsAt.toISOString(),
      }
    : null;
  // A whitelist may be imported before the settings are saved (to be their only rule).
  const [listed] = found
    ? [{ n: found.whitelistCount }]
    : await db.select({ n: countRows() }).from(salePriorityWhitelist).where(eq(salePriorityWhitelist.saleId, sale.id));
  const collectibles = await db
    .select({ code: commodities.code, name: commodities.name })
    .from(commodities)
    .where(eq(commodities.channelId, channel.id))
    .orderBy(asc(commodities.code));
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <ChannelTabs t={t} channel={channel} current="sales" />
      <div className="mb-6 flex flex-wrap items-baseline gap-3">
        <h2 className="text-lg font-semibold text-gray-900">{sale.collectibleName}</h2>
        <span className="font-mono text-xs text-gray-600">{sale.code}</span>
        <span className="rounded bg-gray-100 px-1.5 py-0.5 text-xs font-medium text-gray-800" data-testid="sale-state">
          {t(`ops.sales.state.${sale.state}`)}
        </span>
        <a
          href={`${publicOrigin(channel.host)}/goods/detail/${sale.id}`}
          target="_blank"
          rel="noreferrer"
          className="text-sm text-blue-800 underline underline-offset-2"
        >
          {t('ops.sales.preview')}
        </a>
      </div>
      <p className="mb-4 text-sm text-gray-700" data-testid="sale-copies">
        {t('ops.sales.copiesSold')}: {count.format(sale.copiesTaken)} · {t('ops.sales.copiesLeft')}: {count.format(sale.copiesLeft)} /{' '}
        {count.format(sale.copies)} · {t('ops.sales.saleStartTime', { zone })}: {zoneText(sale.saleStartTime.toISOString(), zone)}
      </p>
      {sale.pausedAt && (
        <p className="mb-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900" role="status">
          {t('ops.sales.pausedSince', { at: zoneText(sale.pausedAt.toISOString(), zone) })}
        </p>
      )}
      {(operator.role === 'owner' || operator.role === 'manager') && (
        <div className="mb-8">
          <SaleControls
            locale={locale}
            channel={channel.key}
            sale={sale.code}
            paused={sale.pausedAt !== null}
            archived={sale.archivedAt !== null}
            hasOrders={sale.hasOrders}
            words={words}
          />
        </div>
      )}
      <SaleForm
        locale={locale}
        channel={channel.key}
        timeZone={zone}
        editing={sale.code}
        frozen={sale.hasOrders}
        canWrite={canWrite}
        words={words}
        collectibles={[]}
        initial={{
          code: sale.code,
          collectible: row.collectible,
          price: sale.price,
          copies: sale.copies,
          limitPerUser: sale.limitPerUser,
          saleStartTime: sale.saleStartTime.toISOString(),
          saleEndTime: sale.saleEndTime?.toISOString() ?? null,
          listed: sale.listed,
          sort: sale.sort,
        }}
      />
      <div className="mt-10 max-w-3xl border-t border-gray-200 pt-6">
        <SaleLottery
          locale={locale}
          channel={channel.key}
          sale={sale.code}
          timeZone={zone}
          copies={sale.copies}
          canWrite={canWrite}
          initial={lotteryView}
          queue={queueView}
          result={lotteryResult}
          verifyUrl={`${publicOrigin(channel.host)}/lottery/${sale.id}`}
          renderedAt={now.getTime()}
          words={CATALOGUES[locale].ops.lottery}
        />
      </div>
      <div className="mt-10 max-w-3xl border-t border-gray-200 pt-6">
        <SalePriority
          locale={locale}
          channel={channel.key}
          sale={sale.code}
          timeZone={zone}
          canWrite={canWrite}
          firstCome={!allocation || (allocation.mode !== 'lottery' && allocation.mode !== 'queue')}
          collectibles={collectibles}
          initial={priority}
          whitelistCount={listed?.n ?? 0}
          words={CATALOGUES[locale].priorityConsole}
        />
      </div>
      <div className="mt-10 max-w-3xl border-t border-gray-200 pt-6">
        <SaleCancel
          locale={locale}
          channel={channel.key}
          saleId={sale.id}
          code={cancel.code}
          initial={{ ...cancel, cancelledAt: cancel.cancelledAt ? cancelTime.format(cancel.cancelledAt) : null }}
          canCancel={operator.role === 'owner' || operator.role === 'manager'}
          words={CATALOGUES[locale].ops.refunds}
        />
      </div>
    </ConsoleShell>
  );
}
