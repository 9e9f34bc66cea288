import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { pageSale } from '@/lib/page/sale';
import { pagePublishedLottery } from '@/lib/page/lottery';
import { pageLoader } from '@/lib/page/loader';
import { routeId } from '@/lib/page/route-id';
import { formatDate } from '@/lib/format/date';
import { PageHeader } from '@/components/layout/page-header';
import { Card } from '@/components/ui/card';
import { LotteryDownload } from '@/components/sale/lottery-download';
import { ACCOUNTS_PER_PAGE, LotteryAccounts } from '@/components/sale/lottery-accounts';

type Props = {
  params: Promise<PageParams & { saleId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** The channel, the sale and its lottery (one read for metadata and page): not a lottery sale of this channel → /404. */
const pageVerify = pageLoader(async (key: string, locale: string, rawId: string) => {
  const channel = await loadPageChannel(Promise.resolve({ channel: key, locale }));
  const id = routeId(rawId);
  if (id === null) redirect('/404');
  const sale = await pageSale(channel, String(id));
  const lottery = await pagePublishedLottery(channel.id, sale.id);
  if (!lottery) redirect('/404');
  return { channel, sale, lottery };
});

async function load(params: Props['params']) {
  const { channel, locale, saleId } = await params;
  return pageVerify(channel, locale, saleId);
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { channel, sale } = await load(params);
  return { title: `${channel.t('lottery.verifyTitle')} · ${sale.commodity.name}` };
}

function pageOf(value: string | string[] | undefined, pages: number): number {
  const n = Number(Array.isArray(value) ? value[0] : value);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, Math.max(1, pages)) : 1;
}

/**
 * /lottery/:saleId (issue 35, "A public 'verify this draw' page per sale"): what anyone may read of a sale's lottery
 * (`lottery/published`): the copies, the times, the public value's source and the commitment from its setup; after the
 * draw the seed, the public value, the list hash, the winners and the waitlist by account number (a page of 100 at a
 * time), the published file to download and the command that checks it offline (docs/drops.md).
 */
export default async function LotteryVerifyPage({ params, searchParams }: Props) {
  const { channel, sale, lottery } = await load(params);
  const query = await searchParams;
  const { t, theme } = channel;
  const tz = theme.timeZone;
  const time = (iso: string) => <span className="whitespace-nowrap">{formatDate(iso, 'yyyy-MM-dd HH:mm:ss', tz)}</span>;
  const draw = lottery.draw;
  const fileName = `draw-${draw?.channelKey ?? channel.theme.key}-${sale.id}.json`;

  const facts: [string, ReactNode, string][] = [
    [t('lottery.copies'), lottery.copies, 'verify-copies'],
    [t('lottery.registrants'), t('lottery.registrantsCount', { count: lottery.registrants }), 'verify-registrants'],
    [
      t('lottery.registrationWindow'),
      <>
        {time(lottery.registrationOpensAt)} – {time(lottery.registrationClosesAt)}
      </>,
      'verify-window',
    ],
    [t('lottery.drawAt'), time(lottery.drawAt), 'verify-draw-at'],
    [t('lottery.source'), lottery.publicValueSource, 'verify-source'],
  ];

  return (
    <>
      <PageHeader title={t('lottery.verifyTitle')} backHref={`/goods/detail/${sale.id}`} backLabel={t('goods.back')} />
      <main className="flex flex-col gap-3 px-3 pt-3 pb-[1.6rem]" data-testid="lottery-verify">
        <Card as="section" className="p-4">
          <h1 className="text-lg font-semibold text-skin-1">{sale.commodity.name}</h1>
          <p className="mt-2 text-sm leading-relaxed text-neutral-600">{t('lottery.verifyIntro')}</p>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2.5 text-sm">
            {facts.map(([label, value, testId]) => (
              <div key={testId} className="contents">
                <dt className="text-neutral-500">{label}</dt>
                <dd className="min-w-0 text-right break-words text-skin-1" data-testid={testId}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          <Hash label={t('lottery.commitment')} value={lottery.commitment} testId="verify-commitment" />
        </Card>

        {draw === null || lottery.drawnAt === null ? (
          <Card as="section" className="p-4">
            <p className="text-sm leading-relaxed text-skin-1" data-testid="verify-not-drawn">
              {t('lottery.notDrawn', { time: formatDate(lottery.drawAt, 'yyyy-MM-dd HH:mm', tz) })}
            </p>
          </Card>
        ) : (
          <>
            <Card as="section" className="p-4">
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2.5 text-sm">
                <dt className="text-neutral-500">{t('lottery.drawnAt')}</dt>
                <dd className="text-right text-skin-1" data-testid="verify-drawn-at">
                  {time(lottery.drawnAt)}
                </dd>
                <dt className="text-neutral-500">{t('lottery.publicValue')}</dt>
                <dd className="min-w-0 text-right break-words text-skin-1" data-testid="verify-public-value">
                  {draw.publicValue}
                </dd>
              </dl>
              <Hash label={t('lottery.seed')} value={draw.seed} testId="verify-seed" />
              <Hash label={t('lottery.listHash')} value={draw.listHash} testId="verify-list-hash" />
            </Card>
            <LotteryAccounts
              t={t}
              heading={t('lottery.winners', { count: draw.winners.length })}
              accounts={draw.winners}
              firstRank={1}
              page={pageOf(query.winners, Math.ceil(draw.winners.length / ACCOUNTS_PER_PAGE))}
              param="winners"
              other={{ name: 'waitlist', value: query.waitlist }}
              testId="verify-winners"
            />
            <LotteryAccounts
              t={t}
              heading={t('lottery.waitlistHeading', { count: draw.waitlist.length })}
              accounts={draw.waitlist}
              firstRank={1}
              page={pageOf(query.waitlist, Math.ceil(draw.waitlist.length / ACCOUNTS_PER_PAGE))}
              param="waitlist"
              other={{ name: 'winners', value: query.winners }}
              testId="verify-waitlist"
            />
            <Card as="section" className="flex flex-col gap-3 p-4" aria-labelledby="check-heading">
              <h2 id="check-heading" className="text-base font-semibold text-skin-1">
                {t('lottery.checkHeading')}
              </h2>
              <LotteryDownload saleId={sale.id} fileName={fileName} label={t('lottery.download')} failed={t('lottery.downloadFailed')} />
              <p className="text-sm leading-relaxed text-neutral-600">{t('lottery.checkHow', { copies: draw.copies })}</p>
              <pre
                className="overflow-x-auto rounded-lg bg-skin-light px-3 py-2 font-mono text-xs text-skin-1"
                data-testid="verify-command"
              >
                npm run draw:verify -- {fileName}
              </pre>
              <p className="text-xs leading-relaxed text-neutral-500">{t('lottery.checkMore')}</p>
            </Card>
          </>
        )}
      </main>
    </>
  );
}

/** A hex digest on a line of its own, in a monospace face, breaking anywhere (64 digits do not fit a phone's line). */
function Hash({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="mt-3">
      <p className="text-sm text-neutral-500">{label}</p>
      <p className="mt-1 font-mono text-xs break-all text-skin-1" data-testid={testId}>
        {value}
      </p>
    </div>
  );
}
