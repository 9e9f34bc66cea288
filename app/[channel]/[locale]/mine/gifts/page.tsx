import Link from 'next/link';
import { titledPage } from '@/lib/page/metadata';
import { openMineList, type SearchPageProps } from '@/lib/page/mine-list';
import { listIncoming, myAccountNumber } from '@/lib/transfer/service';
import { formatDate } from '@/lib/format/date';
import { PageHeader } from '@/components/layout/page-header';
import { CardList } from '@/components/ui/card-list';
import { RecordCard } from '@/components/ui/record-card';
import { Card } from '@/components/ui/card';
import { ClientMessages } from '@/components/shell/client-messages';
import { GiftAnswer } from '@/components/transfer/gift-answer';
import { spacedAccountNumber } from '@/components/transfer/account-number';

export const generateMetadata = titledPage(({ t }) => t('transfer.incomingTitle'));

/**
 * /mine/gifts (issue 36, login required): the gifts other buyers gave the buyer, waiting for their answer, each with
 * Accept and Refuse (a confirm sheet first: accepting is final); the buyer's own account number to pass to a friend;
 * the way to their gift records. A gift past its 72 hours is returned before the list is read, so it never shows here.
 */
export default async function IncomingGiftsPage(props: SearchPageProps) {
  const { channel, scope } = await openMineList(props, '/mine/gifts');
  const { t, skin, theme } = channel;
  const [incoming, number] = await Promise.all([listIncoming(scope), myAccountNumber(scope)]);
  return (
    <>
      <PageHeader title={t('transfer.incomingTitle')} backHref="/mine" backLabel={t('goods.back')} />
      <main className="flex flex-col gap-3 px-3 pt-3 pb-[1.6rem]">
        <ClientMessages channel={channel} namespaces={['transfer', 'common']}>
          <CardList
            items={incoming}
            empty={{ art: 'gift', text: t('transfer.incomingEmpty'), 'data-testid': 'gifts-empty' }}
            data-testid="gifts-incoming"
          >
            {(g) => (
              <RecordCard
                key={g.id}
                collectible={g.collectible}
                placeholderColor={skin.lightColor}
                data-testid="gift-incoming"
                footer={<GiftAnswer transferId={g.id} goods={g.collectible.name} number={g.collectible.number} from={g.otherName} />}
              >
                <p className="truncate text-base font-medium text-skin-1">{g.collectible.name}</p>
                <p className="text-sm text-neutral-700" data-testid="gift-from">
                  {t('transfer.from', { name: g.otherName })}
                </p>
                <p className="flex items-baseline justify-between text-xs text-neutral-500">
                  <span>{t('transfer.answerBy', { time: formatDate(g.expiresAt, 'MM-dd HH:mm', theme.timeZone) })}</span>
                  <span className="font-semibold text-skin-1" data-testid="gift-edition">
                    #{g.collectible.number}/{g.collectible.amountNumber}
                  </span>
                </p>
              </RecordCard>
            )}
          </CardList>
        </ClientMessages>
        <Card as="section" className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
          <span className="text-neutral-600">{t('transfer.myNumber')}</span>
          <span className="font-semibold text-skin-1 tabular-nums select-all" data-testid="gifts-my-number">
            {spacedAccountNumber(number)}
          </span>
        </Card>
        <Link
          href="/mine/gifts/records"
          className="flex h-[0.8rem] items-center justify-center rounded-full border border-black/10 bg-skin-card text-sm font-semibold text-skin-1"
          data-testid="gifts-records-link"
        >
          {t('transfer.recordsTitle')}
        </Link>
      </main>
    </>
  );
}
