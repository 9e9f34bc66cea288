import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { loadPageChannel, pageScope, type PageParams } from '@/lib/page/channel';
import { pageLoader } from '@/lib/page/loader';
import { publicCertificate } from '@/lib/transfer/certificate';
import { publicOrigin } from '@/lib/env';
import { PageHeader } from '@/components/layout/page-header';
import { channelView } from '@/components/layout/channel-view';
import { Certificate } from '@/components/collection/certificate';

type Props = { params: Promise<PageParams & { code: string }> };

/** The channel and the certificate behind the code (one read for metadata and page): an unknown code → /404. */
const pageCertificate = pageLoader(async (key: string, locale: string, code: string) => {
  const channel = await loadPageChannel(Promise.resolve({ channel: key, locale }));
  const certificate = await publicCertificate(pageScope(channel), code);
  // Like any unknown path (redirect rather than notFound(): docs/decisions.md, vercel/next.js#59180).
  if (!certificate) redirect('/404');
  return { channel, certificate };
});

async function load(params: Props['params']) {
  const { channel, locale, code } = await params;
  return pageCertificate(channel, locale, code);
}

/** Link previews for chat apps (what a shared certificate opens as): its name and edition, its picture. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { channel, certificate: c } = await load(params);
  const { t, theme } = channel;
  const origin = publicOrigin(channel.publicHost);
  const url = `${origin}/cert/${c.code}`;
  const title = t('certificate.publicTitle', { goods: c.name, number: c.number });
  const description = t('certificate.publicDescription', {
    goods: c.name,
    number: c.number,
    total: c.amountNumber,
    holder: c.holder,
    brand: theme.brandName,
  });
  const image = new URL(c.cover, origin).href;
  return {
    title,
    description,
    // One buyer's edition: shared by link, not a page for search engines.
    robots: { index: false },
    alternates: { canonical: url },
    openGraph: {
      type: 'website',
      url,
      siteName: theme.brandName,
      title,
      description,
      locale: channel.locale.replace('-', '_'),
      images: [{ url: image, alt: c.name }],
    },
    twitter: { card: 'summary_large_image', title, description, images: [image] },
  };
}

/**
 * /cert/<code> (issue 36, open to everyone): the public view of a held edition's certificate, what a shared link opens.
 * The same certificate as its owner's page without the owner's actions; it follows the edition after a gift (the
 * current holder, masked); nothing of the holder beyond the masked nickname.
 */
export default async function PublicCertificatePage({ params }: Props) {
  const { channel, certificate } = await load(params);
  const { t } = channel;
  return (
    <>
      <PageHeader title={t('certificate.title')} backHref="/" backLabel={t('goods.back')} />
      <main className="px-3 pt-3 pb-[1.6rem]">
        <Certificate certificate={certificate} view={channelView(channel)} />
        <p className="mt-4 text-center text-xs text-neutral-500" data-testid="certificate-public-note">
          {t('certificate.publicNote')}
        </p>
        <Link href="/" className="mt-3 block text-center text-sm font-medium text-skin-1 underline-offset-2 active:underline">
          {channel.theme.brandName}
        </Link>
      </main>
    </>
  );
}
