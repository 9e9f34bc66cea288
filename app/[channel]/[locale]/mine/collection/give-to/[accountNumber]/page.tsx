import { redirect } from 'next/navigation';
import { titledPage } from '@/lib/page/metadata';
import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { requirePageScope } from '@/lib/page/session';
import { giftableEditions } from '@/lib/transfer/certificate';
import { myAccountNumber } from '@/lib/transfer/service';
import { PageHeader } from '@/components/layout/page-header';
import { Card } from '@/components/ui/card';
import { CollectibleRow } from '@/components/ui/collectible-row';
import { EmptyState } from '@/components/ui/empty-state';
import { ButtonLink } from '@/components/ui/button-link';
import { spacedAccountNumber } from '@/components/transfer/account-number';

type Props = { params: Promise<PageParams & { accountNumber: string }> };

export const generateMetadata = titledPage(({ t }) => t('certificate.giveToTitle'));

/**
 * /mine/collection/give-to/<accountNumber> (issue 36, login required): what a receiver's gift code opens on the phone
 * that scans it: the scanner's editions they can give now, each to the give page with the receiver's number filled in
 * (the lookup and the masked-name confirmation happen there as always). A visitor logs in first and comes back here.
 */
export default async function GiveToPage(props: Props) {
  const { accountNumber } = await props.params;
  const channel = await loadPageChannel(props.params);
  const scope = await requirePageScope(channel, `/mine/collection/give-to/${accountNumber}`);
  if (!/^\d{10}$/.test(accountNumber)) redirect('/404');
  const { t, skin } = channel;
  const own = accountNumber === (await myAccountNumber(scope));
  const editions = own ? [] : await giftableEditions(scope);
  return (
    <>
      <PageHeader title={t('certificate.giveToTitle')} backHref="/mine/collection" backLabel={t('goods.back')} />
      <main className="flex flex-col gap-3 px-3 pt-3 pb-[1.6rem]">
        {own ? (
          <Card as="section" className="flex flex-col gap-4 p-4 text-sm text-neutral-700" data-testid="give-to-own">
            <p>{t('certificate.giveToMine')}</p>
            <ButtonLink href="/mine/gift-code" look="secondary" size="md">
              {t('giftCode.entry')}
            </ButtonLink>
          </Card>
        ) : (
          <>
            <p className="px-1 text-sm text-neutral-700" data-testid="give-to-intro">
              {t('certificate.giveToIntro', { number: spacedAccountNumber(accountNumber) })}
            </p>
            {editions.length === 0 ? (
              <EmptyState art="collection" data-testid="give-to-empty">
                {t('certificate.giveToEmpty')}
              </EmptyState>
            ) : (
              <ul className="flex flex-col gap-2" data-testid="give-to-list">
                {editions.map((e) => (
                  <Card as="li" key={e.holdingId} className="p-2">
                    <CollectibleRow
                      collectible={e}
                      placeholderColor={skin.lightColor}
                      href={`/mine/gifts/give/${e.holdingId}?to=${accountNumber}`}
                      data-testid="give-to-edition"
                      trailing={<span className="self-center pr-2 text-sm font-semibold text-skin-1">{t('certificate.giveThis')}</span>}
                    >
                      <p className="truncate text-sm font-semibold text-skin-1">{e.name}</p>
                      <p className="text-xs font-medium text-skin-sign">
                        #{e.number}/{e.amountNumber}
                      </p>
                    </CollectibleRow>
                  </Card>
                ))}
              </ul>
            )}
          </>
        )}
      </main>
    </>
  );
}
