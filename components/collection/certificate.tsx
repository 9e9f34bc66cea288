import type { ReactNode } from 'react';
import type { CertificateView } from '@/lib/transfer/schema';
import { formatDate } from '@/lib/format/date';
import { chainNameIn } from '@/lib/chain/names';
import type { ChannelView } from '@/components/layout/channel-view';
import { Card } from '@/components/ui/card';
import { CertificatePictures } from './certificate-pictures';
import { CopyValue } from './copy-value';

/**
 * A held edition's certificate (issue 36; docs/gifting.md, "Certificate"), as its owner's page and its public page show
 * it: the picture (a tap opens the viewer), the name and edition, the full token id and transaction hash with copy
 * buttons, the chain, how and when the holder got it, and its provenance; every buyer by a masked name. `actions` are
 * the owner's (Give, Share); the public page has none.
 */
export function Certificate({
  certificate: c,
  view: { t, timeZone, placeholderColor },
  actions,
}: {
  certificate: CertificateView;
  view: ChannelView;
  actions?: ReactNode;
}) {
  const day = (iso: string) => formatDate(iso, 'yyyy-MM-dd', timeZone);
  const copy = { copy: t('certificate.copy'), copied: t('certificate.copied') };
  return (
    <article className="flex flex-col gap-3" data-testid="certificate">
      <CertificatePictures
        name={c.name}
        cover={c.cover}
        pictures={c.pictures}
        placeholderColor={placeholderColor}
        words={{ open: t('certificate.pictures', { goods: c.name }), viewer: t('viewer.label'), close: t('viewer.close') }}
      />
      <header className="flex items-center justify-between gap-3">
        <h2 className="min-w-0 text-lg font-semibold break-words text-skin-1" data-testid="certificate-name">
          {c.name}
        </h2>
        <p
          className="shrink-0 rounded-full bg-skin-light px-3 py-0.5 text-sm font-semibold text-skin-1 tabular-nums"
          data-testid="certificate-edition"
        >
          #{c.number}/{c.amountNumber}
        </p>
      </header>
      {actions}
      <Card as="section" className="p-4">
        <dl className="grid grid-cols-1 gap-3 text-sm">
          <div className="min-w-0">
            <dt className="text-xs text-neutral-500">{t('certificate.holder')}</dt>
            <dd className="font-medium text-skin-1" data-testid="certificate-holder">
              {c.holder}
            </dd>
          </div>
          <div className="min-w-0">
            <dt className="text-xs text-neutral-500">{t('certificate.acquired')}</dt>
            <dd className="text-neutral-800" data-testid="certificate-acquired">
              {t(`certificate.how.${c.acquired.how}`, { time: day(c.acquired.at), name: c.acquired.from ?? '****' })}
            </dd>
          </div>
          <div className="min-w-0">
            <dt className="text-xs text-neutral-500">{t('certificate.chain')}</dt>
            <dd className="text-neutral-800" data-testid="certificate-chain">
              {c.onChain ? chainNameIn(c.chainName, t) : t('certificate.chainPending')}
            </dd>
          </div>
          {c.tokenId ? (
            <div className="min-w-0">
              <dt className="mb-0.5 text-xs text-neutral-500">{t('certificate.tokenId')}</dt>
              <dd>
                <CopyValue
                  value={c.tokenId}
                  {...copy}
                  label={t('certificate.copyLabel', { what: t('certificate.tokenId') })}
                  testId="certificate-token"
                />
              </dd>
            </div>
          ) : null}
          {c.txHash ? (
            <div className="min-w-0">
              <dt className="mb-0.5 text-xs text-neutral-500">{t('certificate.txHash')}</dt>
              <dd>
                <CopyValue
                  value={c.txHash}
                  {...copy}
                  label={t('certificate.copyLabel', { what: t('certificate.txHash') })}
                  testId="certificate-tx"
                />
              </dd>
            </div>
          ) : null}
        </dl>
      </Card>
      <Card as="section" aria-labelledby="certificate-provenance" className="p-4">
        <h3 id="certificate-provenance" className="mb-2 text-sm font-semibold text-skin-1">
          {t('certificate.provenance')}
        </h3>
        <ol className="flex flex-col gap-2 border-l-2 border-skin-light pl-3 text-sm" data-testid="certificate-provenance">
          {c.provenance.map((p, i) => (
            <li key={i} className="flex items-baseline justify-between gap-3" data-testid="certificate-holder-row">
              <span className="font-medium text-neutral-800">{p.name}</span>
              <span className="shrink-0 text-xs text-neutral-500">{t('certificate.since', { time: day(p.since) })}</span>
            </li>
          ))}
        </ol>
      </Card>
    </article>
  );
}
