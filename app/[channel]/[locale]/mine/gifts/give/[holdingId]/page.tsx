import { redirect } from 'next/navigation';
import { titledPage } from '@/lib/page/metadata';
import { openMineList } from '@/lib/page/mine-list';
import type { PageParams } from '@/lib/page/channel';
import { giftability, holdingPeriodHours, myAccountNumber } from '@/lib/transfer/service';
import { AppError } from '@/lib/procedure/errors';
import { formatDate } from '@/lib/format/date';
import { PageHeader } from '@/components/layout/page-header';
import { Card } from '@/components/ui/card';
import { CollectibleArt } from '@/components/ui/collectible-art';
import { ClientMessages } from '@/components/shell/client-messages';
import { GiveForm } from '@/components/transfer/give-form';
import { spacedAccountNumber } from '@/components/transfer/account-number';

type Props = {
  params: Promise<PageParams & { holdingId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const generateMetadata = titledPage(({ t }) => t('transfer.giveTitle'));

/**
 * /mine/gifts/give/<holdingId> (issue 36, login required): the collectible to give, its holders so far, and the form
 * (receiver's account number, their masked nickname, confirm); or, while it cannot be given, why and until when, with
 * the Give button disabled. Another buyer's holding, or one no longer held, goes to /404.
 */
export default async function GivePage(props: Props) {
  const { holdingId } = await props.params;
  // issue 36: from a receiver's gift code, their account number comes along (`?to=`) and is filled in.
  const { to } = await props.searchParams;
  const receiverNumber = typeof to === 'string' && /^\d{10}$/.test(to) ? to : undefined;
  const { channel, scope } = await openMineList(props, `/mine/gifts/give/${holdingId}${receiverNumber ? `?to=${receiverNumber}` : ''}`);
  const { t, skin, theme } = channel;
  if (!/^[1-9]\d{0,9}$/.test(holdingId) || Number(holdingId) > 2_147_483_647) redirect('/404');
  const id = Number(holdingId);
  let state;
  try {
    state = await giftability(scope, id);
  } catch (error) {
    // Like any unknown path (redirect rather than notFound(): docs/decisions.md, vercel/next.js#59180).
    if (error instanceof AppError && error.code === 404) redirect('/404');
    throw error;
  }
  const [hours, number] = await Promise.all([holdingPeriodHours(scope), myAccountNumber(scope)]);
  const held = state.collectible;
  const time = (iso: string) => formatDate(iso, 'yyyy-MM-dd HH:mm', theme.timeZone);
  return (
    <>
      <PageHeader title={t('transfer.giveTitle')} backHref="/mine/collection" backLabel={t('goods.back')} />
      <main className="flex flex-col gap-3 px-3 pt-3 pb-[1.6rem]">
        <Card as="section" className="flex gap-3 p-3" data-testid="give-collectible">
          <CollectibleArt collectible={held} width="1.6rem" placeholderColor={skin.lightColor} />
          <div className="flex min-w-0 flex-1 flex-col justify-center gap-1">
            <p className="truncate text-base font-semibold text-skin-1">{held.name}</p>
            <p className="w-fit rounded-full bg-skin-light px-2.5 py-0.5 text-sm font-semibold text-skin-1" data-testid="give-edition">
              #{held.number}/{held.amountNumber}
            </p>
            <p className="text-xs text-neutral-500">
              {t('transfer.provenance')}:{' '}
              <span data-testid="give-provenance">
                {state.provenance
                  .map((p) => `${p.name} (${t('transfer.since', { time: formatDate(p.since, 'yyyy-MM-dd', theme.timeZone) })})`)
                  .join(' → ')}
              </span>
            </p>
          </div>
        </Card>
        {state.canGive ? (
          <ClientMessages channel={channel} namespaces={['transfer', 'common']}>
            <GiveForm
              holdingId={holdingId}
              goods={held.name}
              number={held.number}
              timeZone={theme.timeZone}
              receiverNumber={receiverNumber}
            />
          </ClientMessages>
        ) : (
          <Card as="section" className="flex flex-col gap-3 p-4" data-testid="give-locked">
            <p className="text-sm text-neutral-700" data-testid="give-locked-why">
              {state.why === 'holdingPeriod'
                ? t('transfer.why.holdingPeriod', { time: time(state.from!), hours })
                : t(`transfer.why.${state.why!}`)}
            </p>
            <button
              type="button"
              disabled
              className="h-[0.88rem] rounded-full bg-neutral-200 text-base font-medium text-neutral-600"
              data-testid="give-disabled"
            >
              {state.why === 'holdingPeriod' ? t('transfer.giveFrom', { time: time(state.from!) }) : t('transfer.give')}
            </button>
          </Card>
        )}
        <Card as="section" className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
          <span className="text-neutral-600">{t('transfer.myNumber')}</span>
          <span className="font-semibold text-skin-1 tabular-nums select-all">{spacedAccountNumber(number)}</span>
        </Card>
      </main>
    </>
  );
}
