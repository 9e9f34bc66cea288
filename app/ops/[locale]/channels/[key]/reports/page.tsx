import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { describeInput, inputError } from '@/lib/procedure/messages';
import { readDailyFigures, readSaleFigures, type DayFigures } from '@/lib/report/daily';
import { verifiedBuyerCounts } from '@/lib/buyer/service';
import { dayIn } from '@/lib/channel/identity-policy';
import { ALERT_MAX_TRIES, listAlerts, type DeliveryView } from '@/lib/monitor/alerts';
import { readChannelWebhook } from '@/lib/monitor/webhooks';
import { env } from '@/lib/env';
import { zonedTimeFormat } from '@/lib/format/date';
import { ALERT_LIST_DAYS, reportRange, reportRangeInput } from '@/lib/operator/report-procedures';
import { consoleTitled, consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelTabs } from '@/components/ops/channel-tabs';
import { ReportChart } from '@/components/ops/report-chart';
import { AlertWebhookPanel, type AlertWebhookFormat } from '@/components/ops/alert-webhook';
import { notFound } from 'next/navigation';

type Props = { params: Promise<ConsoleChannelParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export const generateMetadata = consoleTitled((t) => t('ops.reports.title'));

const inputClass =
  'block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 shadow-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none';

/** The table's columns after the day, in the CSV's order (lib/report/csv.ts). */
const FIGURES = [
  'pageViews',
  'visitors',
  'buyers',
  'orders',
  'paidAmount',
  'refunds',
  'refundAmount',
  'conversion',
  // issue 36: visits through buyers' share links and the paid orders credited to them (docs/sharing.md).
  'shareVisits',
  'shareBuys',
] as const;
type Figure = (typeof FIGURES)[number];

/**
 * A channel's Reports tab (issue 32, "Reports"): a range of days in the channel's time zone (default the last 14), the
 * figures as a table and a chart per figure, the CSV of the table, each sale's sell-through, the alerts of the last
 * week with where each one's posts stand, the store's alert webhook (owners: set, test, remove; here beside the alerts
 * it carries rather than on the Settings tab, so an owner sees a failed post and fixes the webhook in one place), and a
 * link to the live drop view. Reads the pre-aggregated rows (lib/report/daily.ts), never the tracking
 * table. Owners and the channel's managers; support is not shown the reports (404, as any channel page it cannot see).
 */
export default async function ReportsPage({ params, searchParams }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  if (operator.role === 'support') notFound();
  const query = await searchParams;
  const one = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
  const values = { from: one('from'), to: one('to') };
  const errors: { from?: string; to?: string } = {};
  const parsed = reportRangeInput.safeParse({ channel: channel.key, ...values }, { error: inputError, reportInput: true });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as 'from' | 'to';
      errors[field] ??= describeInput([issue], locale);
    }
  }
  const now = new Date();
  const { from, to } = reportRange(parsed.success ? parsed.data : {}, channel.timeZone, now);
  const db = getDb();
  const isOwner = operator.role === 'owner';
  const [days, perSale, alerts, webhook, verified] = await Promise.all([
    readDailyFigures(db, channel.id, from, to),
    readSaleFigures(db, channel.id, from, to),
    listAlerts(db, channel.id, new Date(now.getTime() - ALERT_LIST_DAYS * 86_400_000)),
    // Owners only (issue 32): the URL is the robot's key, masked even for them.
    isOwner ? readChannelWebhook(db, channel.id) : Promise.resolve(null),
    // issue 33: how many of the channel's buyers verified their real name, in all and today.
    verifiedBuyerCounts(db, channel.id, channel.timeZone, dayIn(channel.timeZone, now)),
  ]);
  const zoned = zonedTimeFormat(locale, channel.timeZone);
  const deliveryText = (d: DeliveryView) => {
    const state =
      d.state === 'retrying'
        ? t('ops.alerts.state.retrying', { tries: d.tries, max: ALERT_MAX_TRIES, at: d.nextTryAt ? zoned.format(d.nextTryAt) : '—' })
        : d.state === 'failed'
          ? t('ops.alerts.state.failed', { tries: d.tries })
          : t(`ops.alerts.state.${d.state}`);
    return `${t(`ops.alerts.target.${d.target}`)}: ${state}${d.lastError && d.state !== 'delivered' ? ` (${d.lastError})` : ''}`;
  };
  const formats = {
    json: t('ops.alerts.formats.json'),
    wecom: t('ops.alerts.formats.wecom'),
    dingtalk: t('ops.alerts.formats.dingtalk'),
    feishu: t('ops.alerts.formats.feishu'),
  } satisfies Record<AlertWebhookFormat, string>;
  const number = new Intl.NumberFormat(locale);
  const money = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  const show = (figure: Figure, value: number | null): string => {
    if (value === null) return '—';
    if (figure === 'paidAmount' || figure === 'refundAmount') return money.format(value / 100);
    if (figure === 'conversion') return percent.format(value);
    return number.format(value);
  };
  const valueOf = (d: DayFigures, figure: Figure) => d[figure];
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: channel.timeZone });
  const totals = Object.fromEntries(
    FIGURES.filter((f) => f !== 'conversion').map((f) => [f, days.reduce((sum, d) => sum + (valueOf(d, f) ?? 0), 0)]),
  ) as Record<Exclude<Figure, 'conversion'>, number>;
  const totalConversion = totals.visitors > 0 ? totals.buyers / totals.visitors : null;
  const exportHref = `/channels/${channel.key}/reports/export?${new URLSearchParams({ from, to }).toString()}`;

  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <ChannelTabs t={t} channel={channel} current="reports" />
      <p className="text-sm text-gray-600">{t('ops.reports.intro')}</p>
      <p className="mt-1 text-sm font-medium text-gray-800" data-testid="report-zone">
        {t('ops.reports.zone', { zone: channel.timeZone })}
      </p>

      <form
        method="get"
        action={`/channels/${channel.key}/reports`}
        className="mt-4 flex flex-wrap items-end gap-4 rounded-lg border border-gray-200 bg-white p-4"
      >
        {(['from', 'to'] as const).map((name) => (
          <div key={name} className="space-y-1">
            <label htmlFor={`report-${name}`} className="block text-sm font-medium text-gray-800">
              {t(`ops.reports.${name}`)}
            </label>
            <input
              id={`report-${name}`}
              type="date"
              name={name}
              defaultValue={values[name] ?? (name === 'from' ? from : to)}
              className={inputClass}
              aria-invalid={errors[name] ? true : undefined}
              aria-describedby={errors[name] ? `report-${name}-error` : undefined}
            />
            {errors[name] ? (
              <p id={`report-${name}-error`} className="text-sm text-red-700">
                {errors[name]}
              </p>
            ) : null}
          </div>
        ))}
        <button type="submit" className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800">
          {t('ops.reports.apply')}
        </button>
        <Link href={`/channels/${channel.key}/reports`} className="px-2 py-2 text-sm font-medium text-blue-800 hover:underline">
          {t('ops.reports.reset')}
        </Link>
        <a
          href={exportHref}
          download
          className="ml-auto rounded-md border border-gray-300 px-4 py-2 text-sm font-medium text-gray-900 hover:bg-gray-50"
          data-testid="report-csv"
        >
          {t('ops.reports.csv')}
        </a>
        <Link
          href={`/channels/${channel.key}/reports/live`}
          className="rounded-md border border-blue-700 px-4 py-2 text-sm font-medium text-blue-800 hover:bg-blue-50"
        >
          {t('ops.reports.live')}
        </Link>
      </form>

      <section
        aria-labelledby="verified-buyers"
        className="mt-6 rounded-lg border border-gray-200 bg-white p-4"
        data-testid="verified-buyers"
      >
        <h2 id="verified-buyers" className="text-base font-semibold text-gray-900">
          {t('ops.identityPolicy.reportTitle')}
        </h2>
        <p className="text-sm text-gray-600">{t('ops.identityPolicy.reportIntro')}</p>
        <dl className="mt-2 flex flex-wrap gap-x-8 gap-y-2 text-sm">
          <div>
            <dt className="text-gray-600">{t('ops.identityPolicy.reportTotal')}</dt>
            <dd className="text-lg font-semibold text-gray-900" data-testid="verified-total">
              {number.format(verified.total)}
            </dd>
          </div>
          <div>
            <dt className="text-gray-600">{t('ops.identityPolicy.reportToday', { zone: channel.timeZone })}</dt>
            <dd className="text-lg font-semibold text-gray-900" data-testid="verified-today">
              {number.format(verified.today)}
            </dd>
          </div>
        </dl>
      </section>

      <h2 className="mt-8 text-lg font-semibold text-gray-900">{t('ops.reports.table')}</h2>
      <div className="mt-3 overflow-x-auto rounded-lg border border-gray-200 bg-white">
        <table className="min-w-full divide-y divide-gray-200 text-right text-sm" data-testid="report-table">
          <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-600 uppercase">
            <tr>
              <th scope="col" className="px-3 py-3 text-left">
                {t('ops.reports.day')}
              </th>
              {FIGURES.map((f) => (
                <th key={f} scope="col" className="px-3 py-3">
                  {t(`ops.reports.${f}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100 font-mono text-xs text-gray-900">
            {days.map((d) => (
              <tr key={d.day} data-report-day={d.day}>
                <th scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap">
                  {d.day}
                </th>
                {FIGURES.map((f) => (
                  <td key={f} className="px-3 py-2" data-figure={f}>
                    {show(f, valueOf(d, f))}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot className="bg-gray-50 font-mono text-xs font-semibold text-gray-900">
            <tr>
              <th scope="row" className="px-3 py-2 text-left">
                {t('ops.reports.total')}
              </th>
              {FIGURES.map((f) => (
                <td key={f} className="px-3 py-2">
                  {f === 'conversion' ? show(f, totalConversion) : show(f, totals[f])}
                </td>
              ))}
            </tr>
          </tfoot>
        </table>
      </div>

      <h2 className="mt-8 text-lg font-semibold text-gray-900">{t('ops.reports.charts')}</h2>
      <div className="mt-3 grid gap-4 md:grid-cols-2 xl:grid-cols-4">
        {FIGURES.map((f) => (
          <ReportChart
            key={f}
            title={t('ops.reports.chartOf', { figure: t(`ops.reports.${f}`) })}
            days={days.map((d) => d.day)}
            values={days.map((d) => valueOf(d, f) ?? 0)}
            format={(v) => show(f, v)}
          />
        ))}
      </div>

      <h2 className="mt-8 text-lg font-semibold text-gray-900">{t('ops.reports.sales')}</h2>
      {perSale.length === 0 ? (
        <p className="mt-3 rounded-lg border border-dashed border-gray-300 bg-white p-6 text-center text-sm text-gray-600">
          {t('ops.reports.noSales')}
        </p>
      ) : (
        <div className="mt-3 overflow-x-auto rounded-lg border border-gray-200 bg-white">
          <table className="min-w-full divide-y divide-gray-200 text-right text-sm" data-testid="report-sales">
            <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-3 text-left">
                  {t('ops.reports.sale')}
                </th>
                <th scope="col" className="px-3 py-3">
                  {t('ops.reports.copiesOffered')}
                </th>
                <th scope="col" className="px-3 py-3">
                  {t('ops.reports.orders')}
                </th>
                <th scope="col" className="px-3 py-3">
                  {t('ops.reports.copiesSold')}
                </th>
                <th scope="col" className="px-3 py-3">
                  {t('ops.reports.sellThrough')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100 text-gray-900">
              {perSale.map((s) => (
                <tr key={s.saleId}>
                  <th scope="row" className="px-3 py-2 text-left font-medium">
                    {s.name} <span className="font-mono text-xs text-gray-600">{s.code}</span>
                  </th>
                  <td className="px-3 py-2 font-mono text-xs">{number.format(s.copiesOffered)}</td>
                  <td className="px-3 py-2 font-mono text-xs">{number.format(s.orders)}</td>
                  <td className="px-3 py-2 font-mono text-xs">{number.format(s.copiesSold)}</td>
                  <td className="px-3 py-2 font-mono text-xs">{percent.format(s.sellThrough)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2 className="mt-8 text-lg font-semibold text-gray-900">{t('ops.reports.alerts')}</h2>
      {alerts.length === 0 ? (
        <p className="mt-3 rounded-lg border border-dashed border-gray-300 bg-white p-6 text-center text-sm text-gray-600">
          {t('ops.reports.noAlerts')}
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-gray-100 rounded-lg border border-gray-200 bg-white" data-testid="report-alerts">
          {alerts.map((a) => (
            <li key={a.id} className="flex flex-wrap items-baseline gap-x-4 gap-y-1 px-4 py-3 text-sm">
              <span className="font-mono text-xs text-gray-600">{when.format(a.createdAt)}</span>
              <span className="font-semibold text-red-800">{t(`ops.reports.kind.${a.kind}`)}</span>
              <span className="text-gray-900">{a.detail}</span>
              {a.deliveries.length === 0 ? (
                <span className="ml-auto text-xs text-gray-600">{t('ops.reports.notPosted')}</span>
              ) : (
                <ul className="ml-auto text-right text-xs" data-testid="alert-deliveries">
                  {a.deliveries.map((d) => (
                    <li
                      key={d.target}
                      data-state={d.state}
                      className={
                        d.state === 'failed' ? 'font-semibold text-red-800' : d.state === 'delivered' ? 'text-gray-600' : 'text-amber-800'
                      }
                    >
                      {deliveryText(d)}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}

      <h2 className="mt-8 text-lg font-semibold text-gray-900">{t('ops.alerts.title')}</h2>
      {isOwner ? (
        <AlertWebhookPanel
          locale={locale}
          channel={channel.key}
          format={(webhook?.format as AlertWebhookFormat | undefined) ?? null}
          isSet={webhook !== null}
          words={{
            title: t('ops.alerts.title'),
            intro: t('ops.alerts.intro'),
            none: t('ops.alerts.none'),
            current: webhook ? t('ops.alerts.current', { url: webhook.url, format: formats[webhook.format] }) : null,
            signedText: webhook ? (webhook.signed ? t('ops.alerts.signed') : t('ops.alerts.unsigned')) : null,
            deployment: env().ALERT_WEBHOOK_URL ? t('ops.alerts.deployment') : null,
            url: t('ops.alerts.url'),
            urlHint: t('ops.alerts.urlHint'),
            urlKeep: t('ops.alerts.urlKeep'),
            format: t('ops.alerts.format'),
            formats,
            secret: t('ops.alerts.secret'),
            secretHint: t('ops.alerts.secretHint'),
            secretKeep: t('ops.alerts.secretKeep'),
            secretNone: t('ops.alerts.secretNone'),
            save: t('ops.alerts.save'),
            saving: t('ops.alerts.saving'),
            saved: t('ops.alerts.saved'),
            test: t('ops.alerts.test'),
            testing: t('ops.alerts.testing'),
            testTaken: t('ops.alerts.testTaken', { status: '{status}' }),
            testRefused: t('ops.alerts.testRefused'),
            testSaid: t('ops.alerts.testSaid', { said: '{said}' }),
            remove: t('ops.alerts.remove'),
            confirmRemove: t('ops.alerts.confirmRemove'),
            confirm: t('ops.alerts.confirm'),
            cancel: t('ops.alerts.cancel'),
            failed: t('ops.alerts.failed'),
          }}
        />
      ) : (
        <p className="mt-3 rounded-lg border border-dashed border-gray-300 bg-white p-6 text-center text-sm text-gray-600">
          {t('ops.alerts.ownersOnly')}
        </p>
      )}
    </ConsoleShell>
  );
}
