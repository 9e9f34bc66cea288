import { redirect } from 'next/navigation';
import { loadPageChannel, type PageParams } from '@/lib/channel/page-channel';
import { getPageUser } from '@/lib/auth/page-session';
import { getDb } from '@/lib/db/client';
import { getGift } from '@/lib/gift/service';
import { AppError } from '@/lib/api/errors';
import { PageHeader } from '@/components/layout/page-header';
import { GiftDetail } from './gift-detail';

export type ReceiveDetailParams = PageParams & { id: string; exchange_id: string };

const ID = /^[1-9]\d{0,9}$/;

/** Loads one gift of the page's channel; anything else (bad ids, another channel's gift) goes to /404 (spec §2). */
export async function loadGiftForPage(params: Promise<ReceiveDetailParams>) {
  const { id, exchange_id: offerId } = await params;
  const channel = await loadPageChannel(params);
  if (!ID.test(id) || !ID.test(offerId) || Number(id) > 2_147_483_647 || Number(offerId) > 2_147_483_647) redirect('/404');
  const user = await getPageUser({ id: channel.id, key: channel.theme.key });
  try {
    const gift = await getGift({ db: getDb(), now: new Date(), channelId: channel.id, userId: user?.id ?? null }, Number(id), Number(offerId));
    return { channel, gift, path: { id, offerId } };
  } catch (error) {
    if (error instanceof AppError && error.code === 404) redirect('/404');
    throw error;
  }
}

/** One gift and its receive button (spec §2 receiveDetail and receiveDetailNew, title 'receive detail'; open to visitors). */
export async function ReceiveDetailPage({ params, basePath, backHref }: { params: Promise<ReceiveDetailParams>; basePath: string; backHref: string }) {
  const { channel, gift, path } = await loadGiftForPage(params);
  const { t, theme, skin } = channel;
  const here = `${basePath}/${path.id}/${path.offerId}`;
  return (
    <>
      <PageHeader title={t('gift.detailTitle')} backHref={backHref} backLabel={t('gift.back')} />
      <main className="px-3 pb-[1.6rem] pt-3">
        <GiftDetail campaign={gift.campaign} offer={gift.offer} eligibility={gift.eligibility} loginHref={`/login?redirect=${encodeURIComponent(here)}`} t={t} timeZone={theme.timeZone} placeholderColor={skin.lightColor} />
      </main>
    </>
  );
}
