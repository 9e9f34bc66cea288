import Link from 'next/link';
import { redirect } from 'next/navigation';
import { titledPage } from '@/lib/page/metadata';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { requirePageScope } from '@/lib/page/session';
import { ownCertificate } from '@/lib/transfer/certificate';
import { holdingPeriodHours } from '@/lib/transfer/service';
import { AppError } from '@/lib/procedure/errors';
import { formatDate } from '@/lib/format/date';
import { publicOrigin } from '@/lib/env';
import { PageHeader } from '@/components/layout/page-header';
import { channelView } from '@/components/layout/channel-view';
import { Certificate } from '@/components/collection/certificate';
import { ShareActions } from '@/components/share/share-actions';
import { shareLabels } from '@/components/share/share-labels';

type Props = { params: Promise<PageParams & { holdingId: string }> };

export const generateMetadata = titledPage(({ t }) => t('certificate.title'));

/**
 * /mine/collection/<holdingId> (issue 36, login required): the buyer's own certificate of an edition they hold, with
 * Give (or why not yet, and from when) and Share (its public page). Another buyer's holding, or one no longer held, is
 * an unknown page: /404, never a 403 that would say it exists.
 */
export default async function CertificatePage(props: Props) {
  const { holdingId } = await props.params;
  const channel = await loadPageChannel(props.params);
  const scope = await requirePageScope(channel, `/mine/collection/${holdingId}`);
  if (!/^[1-9]\d{0,9}$/.test(holdingId) || Number(holdingId) > 2_147_483_647) redirect('/404');
  let certificate;
  try {
    certificate = await ownCertificate(scope, Number(holdingId));
  } catch (error) {
    // Like any unknown path (redirect rather than notFound(): docs/decisions.md, vercel/next.js#59180).
    if (error instanceof AppError && error.code === 404) redirect('/404');
    throw error;
  }
  const { t, theme } = channel;
  const time = (iso: string) => formatDate(iso, 'yyyy-MM-dd HH:mm', theme.timeZone);
  const hours = certificate.why === 'holdingPeriod' ? await holdingPeriodHours(scope) : 0;
  const url = `${publicOrigin(channel.publicHost)}/cert/${certificate.code}`;
  const actions = (
    <section className="flex flex-col gap-3" data-testid="certificate-actions">
      {certificate.canGive ? (
        <Link
          href={`/mine/gifts/give/${certificate.holdingId}`}
          className="flex h-[0.8rem] items-center justify-center rounded-full bg-skin-button text-sm font-semibold text-skin-button-text shadow-card active:opacity-80"
          data-testid="certificate-give"
        >
          {t('transfer.give')}
        </Link>
      ) : (
        <div className="flex flex-col gap-1.5">
          <span
            role="link"
            aria-disabled="true"
            className="flex h-[0.8rem] items-center justify-center rounded-full bg-neutral-200 text-sm font-medium text-neutral-600"
            data-testid="certificate-give-disabled"
          >
            {certificate.why === 'holdingPeriod' ? t('transfer.giveFrom', { time: time(certificate.from!) }) : t('transfer.give')}
          </span>
          <p className="text-xs text-neutral-500" data-testid="certificate-give-why">
            {certificate.why === 'holdingPeriod'
              ? t('transfer.why.holdingPeriod', { time: time(certificate.from!), hours })
              : t(`transfer.why.${certificate.why!}`)}
          </p>
        </div>
      )}
      <ShareActions
        url={url}
        title={t('certificate.publicTitle', { goods: certificate.name, number: certificate.number })}
        text={t('certificate.shareText', { goods: certificate.name, number: certificate.number, brand: theme.brandName })}
        posterUrl={`/api/share/poster/cert/${certificate.code}`}
        labels={shareLabels(t, certificate.name)}
      />
    </section>
  );
  return (
    <>
      <PageHeader title={t('certificate.title')} backHref="/mine/collection" backLabel={t('goods.back')} />
      <main className="px-3 pt-3 pb-[1.6rem]">
        <Certificate certificate={certificate} view={channelView(channel)} actions={actions} />
      </main>
    </>
  );
}
