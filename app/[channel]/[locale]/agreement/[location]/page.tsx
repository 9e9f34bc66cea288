import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { PageHeader } from '@/components/layout/page-header';
import { Card } from '@/components/ui/card';
import { agreementBlocks, agreementVersion } from '@/lib/channel/agreements';
import { channelAgreements } from '@/lib/channel/agreement-facts';

type Props = { params: Promise<PageParams & { location: string }> };

/** spec §2 /agreement/:location: the channel's texts of spec §3. Other locations are unknown pages (/404). */
const LOCATIONS = { privacy: 'privacyText', salesStrategy: 'salesStrategyText' } as const;
type Location = keyof typeof LOCATIONS;

function isLocation(value: string): value is Location {
  return Object.hasOwn(LOCATIONS, value);
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { location } = await params;
  const { t } = await loadPageChannel(params);
  return { title: isLocation(location) ? t(`agreement.${location}`) : t('route.notFound') };
}

export default async function AgreementPage({ params }: Props) {
  const { location } = await params;
  // Like any unknown path (spec §2); redirect rather than notFound(), see vercel/next.js#59180 in docs/decisions.md.
  if (!isLocation(location)) redirect('/404');
  const channel = await loadPageChannel(params);
  // The operator's own text, or the store's template in the buyer's language (lib/channel/agreements.ts).
  const text = channelAgreements(channel.theme, channel.locale)[LOCATIONS[location]];
  return (
    <>
      <PageHeader title={channel.t(`agreement.${location}`)} backHref="/login" backLabel={channel.t('goods.back')} />
      <main className="px-5 py-6">
        <Card as="article" className="p-5 text-sm leading-relaxed text-neutral-700" data-testid="agreement-text">
          {agreementBlocks(text).map((block, i) =>
            block.kind === 'heading' ? (
              <h2 key={i} className="mt-5 mb-2 text-base font-semibold text-neutral-900 first:mt-0">
                {block.text}
              </h2>
            ) : block.kind === 'list' ? (
              <ul key={i} className="mb-3 list-disc space-y-1 pl-5 last:mb-0">
                {block.items.map((item, j) => (
                  <li key={j}>{item}</li>
                ))}
              </ul>
            ) : (
              <p key={i} className="mb-3 whitespace-pre-line last:mb-0">
                {block.text}
              </p>
            ),
          )}
        </Card>
        {/* Which text this is (issue 33): the version a buyer accepts by logging in, as the console lists it. */}
        <p className="mt-3 px-1 text-xs text-neutral-500" data-testid="agreement-version">
          {channel.t('agreement.version', { version: agreementVersion(text) })}
        </p>
      </main>
    </>
  );
}
