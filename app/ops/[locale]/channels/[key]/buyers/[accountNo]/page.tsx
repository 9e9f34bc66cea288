import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { clientIp } from '@/lib/server/client-ip';
import { formatFen } from '@/lib/format/money';
import { consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { lookAtBuyer } from '@/lib/operator/buyer-views';
import { ACCOUNT_NUMBER } from '@/lib/auth/account-numbers';
import { dayIn } from '@/lib/channel/identity-policy';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelTabs } from '@/components/ops/channel-tabs';
import { BuyerBlock } from '@/components/ops/buyer-block';
import type { Metadata } from 'next';

type Props = { params: Promise<ConsoleChannelParams & { accountNo: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { t } = await consoleWords(params);
  const { accountNo } = await params;
  return { title: t('ops.buyers.buyerTitle', { accountNumber: accountNo.slice(0, 10) }) };
}

/**
 * A buyer of the channel (issue 32, "Orders and buyers"): their account number here, phone (masked 138****1234 for
 * managers and support, in full for owners), first and last login here, collectibles held here, their orders here,
 * and the block state, with block and lift for owners and managers. 404 for a number this channel does not have.
 * The look is audited.
 */
export default async function BuyerPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  const { accountNo } = await params;
  if (!ACCOUNT_NUMBER.test(accountNo)) notFound();
  const buyer = await lookAtBuyer(
    { db: getDb(), operator, channelId: channel.id, ip: clientIp(await headers()), now: new Date() },
    channel.key,
    accountNo,
  );
  if (!buyer) notFound();
  const zone = channel.timeZone || 'UTC';
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: channel.timeZone || undefined });
  const at = (d: Date | null) => (d ? `${when.format(d)} (${zone})` : t('ops.buyers.never'));
  const canBlock = operator.role === 'owner' || operator.role === 'manager';
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <ChannelTabs t={t} channel={channel} current="orders" />
      <h2 className="text-xl font-semibold text-gray-900">{t('ops.buyers.buyerTitle', { accountNumber: buyer.accountNumber })}</h2>
      <dl className="mt-4 grid max-w-2xl grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="text-gray-600">{t('ops.buyers.accountNumber')}</dt>
        <dd className="font-mono" data-testid="buyer-account-number">
          {buyer.accountNumber}
        </dd>
        <dt className="text-gray-600">{t('ops.buyers.phone')}</dt>
        <dd className="font-mono" data-testid="buyer-phone">
          {buyer.phone}
          {buyer.phoneMasked ? <span className="ml-2 font-sans text-xs text-gray-500">({t('ops.buyers.phoneMasked')})</span> : null}
        </dd>
        <dt className="text-gray-600">{t('ops.buyers.firstLogin')}</dt>
        <dd>{at(buyer.firstLoginAt)}</dd>
        <dt className="text-gray-600">{t('ops.buyers.lastLogin')}</dt>
        <dd>{at(buyer.lastLoginAt)}</dd>
        <dt className="text-gray-600">{t('ops.buyers.holdings')}</dt>
        <dd data-testid="buyer-holdings">{buyer.holdings}</dd>
        <dt className="text-gray-600">{t('ops.identityPolicy.verification')}</dt>
        <dd data-testid="buyer-identity">
          {buyer.identity
            ? t('ops.identityPolicy.verified', {
                name: buyer.identity.maskedName,
                idNumber: buyer.identity.maskedIdNumber,
                day: dayIn(zone, buyer.identity.verifiedAt),
              })
            : t('ops.identityPolicy.notVerified')}
        </dd>
        <dt className="text-gray-600">{t('ops.buyers.blockState')}</dt>
        <dd data-testid="buyer-block-state" className={buyer.block ? 'font-semibold text-red-700' : ''}>
          {buyer.block
            ? t(buyer.block.everyChannel ? 'ops.buyers.blockedEverywhere' : 'ops.buyers.blockedHere', {
                at: at(buyer.block.blockedAt),
                reason: buyer.block.reason,
              })
            : t('ops.buyers.notBlocked')}
        </dd>
      </dl>

      {canBlock ? (
        <BuyerBlock
          locale={locale}
          channel={channel.key}
          accountNumber={buyer.accountNumber}
          blocked={buyer.block !== null}
          everyChannelBlock={buyer.block?.everyChannel ?? false}
          isOwner={operator.role === 'owner'}
          words={{
            intro: t('ops.buyers.blockIntro'),
            reason: t('ops.buyers.reason'),
            reasonHint: t('ops.buyers.reasonHint'),
            everyChannel: t('ops.buyers.everyChannel'),
            block: t('ops.buyers.block'),
            unblock: t('ops.buyers.unblock'),
            failed: t('ops.failed'),
          }}
        />
      ) : (
        <p className="mt-4 rounded-md bg-gray-100 px-4 py-3 text-sm text-gray-700">{t('ops.buyers.readOnly')}</p>
      )}

      <h3 className="mt-8 text-base font-semibold text-gray-900">{t('ops.buyers.orders')}</h3>
      {buyer.orders.length === 0 ? (
        <p className="mt-2 text-sm text-gray-600">{t('ops.buyers.noOrders')}</p>
      ) : (
        <div className="mt-2 overflow-x-auto rounded-lg border border-gray-200 bg-white">
          <table className="min-w-full divide-y divide-gray-200 text-left text-sm">
            <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-600 uppercase">
              <tr>
                <th scope="col" className="px-4 py-3">
                  {t('ops.buyers.orderNo')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t('ops.buyers.state')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t('ops.buyers.amount')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t('ops.buyers.created')} ({zone})
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {buyer.orders.map((o) => (
                <tr key={o.orderNo}>
                  <td className="px-4 py-2 font-mono">
                    <Link href={`/channels/${channel.key}/orders/${o.orderNo}`} className="text-blue-800 underline">
                      {o.orderNo}
                    </Link>
                  </td>
                  <td className="px-4 py-2">{t(`ops.buyers.orderState.${o.state}`)}</td>
                  <td className="px-4 py-2">{formatFen(o.amount)}</td>
                  <td className="px-4 py-2">{when.format(o.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {/* Which version of each agreement the buyer accepted here, and when (issue 33). */}
      <h3 className="mt-8 text-base font-semibold text-gray-900">{t('ops.buyers.agreements')}</h3>
      {buyer.agreements.length === 0 ? (
        <p className="mt-2 text-sm text-gray-600">{t('ops.buyers.noAgreements')}</p>
      ) : (
        <div className="mt-2 overflow-x-auto rounded-lg border border-gray-200 bg-white">
          <table className="min-w-full divide-y divide-gray-200 text-left text-sm" data-testid="buyer-agreements">
            <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-600 uppercase">
              <tr>
                <th scope="col" className="px-4 py-3">
                  {t('ops.buyers.agreement')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t('ops.buyers.agreementVersion')}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t('ops.buyers.agreementAccepted')} ({zone})
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {buyer.agreements.map((a) => (
                <tr key={`${a.agreement}:${a.version}`}>
                  <td className="px-4 py-2">{t(`ops.buyers.agreementName.${a.agreement}`)}</td>
                  <td className="px-4 py-2 font-mono">{a.version}</td>
                  <td className="px-4 py-2">{when.format(a.acceptedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </ConsoleShell>
  );
}
