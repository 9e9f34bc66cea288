import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listCampaignRecords } from '@/lib/campaign/manage';
import { listChainCampaigns } from '@/lib/chain/manage';
import { consoleTitled, consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelTabs } from '@/components/ops/channel-tabs';
import { NewCampaignForm } from '@/components/ops/campaign-panel';
import { ChainEditForm } from '@/components/ops/campaign-edit';
import { asc, eq } from 'drizzle-orm';
import { commodities } from '@/lib/db/schema';
import { chainedUp } from '@/lib/chain/manage';
import { campaignWords } from './words';

type Props = { params: Promise<ConsoleChannelParams> };

export const generateMetadata = consoleTitled((t) => t('ops.channel.tab.campaigns'));

/**
 * A channel's Campaigns tab (issue 32, "Campaigns"; docs/operators.md, "Campaigns and codes"): its gift campaigns,
 * exchange activities and chain-up campaigns with their windows in the channel's time zone, and the form that makes a
 * new one. Owners and the channel's managers write; support reads.
 */
export default async function CampaignsPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  const db = getDb();
  const zone = channel.timeZone;
  const [gift, exchange, chain, collectibles] = await Promise.all([
    listCampaignRecords(db, channel.id, 'gift'),
    listCampaignRecords(db, channel.id, 'exchange'),
    listChainCampaigns(db, channel.id),
    db
      .select({ id: commodities.id, name: commodities.name })
      .from(commodities)
      .where(eq(commodities.channelId, channel.id))
      .orderBy(asc(commodities.name))
      .limit(500),
  ]);
  const now = new Date();
  const hasEnded = (c: { endTime: string | null }) => c.endTime !== null && new Date(c.endTime).getTime() <= now.getTime();
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone });
  const words = campaignWords(t, zone);
  const windowOf = (c: { startTime: string; endTime: string | null }) =>
    `${when.format(new Date(c.startTime))} – ${c.endTime ? when.format(new Date(c.endTime)) : words.never}`;
  const canWrite = operator.role === 'owner' || operator.role === 'manager';
  const list = (
    title: string,
    rows: { id: number; name: string; code?: string; startTime: string; endTime: string | null }[],
    link: boolean,
  ) => (
    <section className="space-y-2" aria-label={title}>
      <h2 className="text-lg font-semibold text-gray-900">{title}</h2>
      {rows.length === 0 ? (
        <p className="text-sm text-gray-600">{words.none}</p>
      ) : (
        <ul className="divide-y divide-gray-100 rounded-lg border border-gray-200 bg-white text-sm">
          {rows.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3" data-campaign={c.code ?? c.id}>
              <span>
                {link ? (
                  <Link
                    href={`/channels/${channel.key}/campaigns/${c.id}`}
                    className="font-medium text-blue-800 underline underline-offset-2"
                  >
                    {c.name}
                  </Link>
                ) : (
                  <span className="font-medium">{c.name}</span>
                )}
                {c.code ? <span className="ml-2 font-mono text-xs text-gray-600">{c.code}</span> : null}
              </span>
              <span className="text-gray-700">
                {windowOf(c)}
                {hasEnded(c) ? ` · ${words.ended}` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <ChannelTabs t={t} channel={channel} current="campaigns" />
      <div className="space-y-6">
        <p className="max-w-3xl text-sm text-gray-700">{words.intro}</p>
        {!canWrite ? <p className="rounded-md bg-gray-100 px-4 py-3 text-sm text-gray-700">{words.readOnly}</p> : null}
        {list(words.gifts!, gift, true)}
        {list(words.exchanges!, exchange, true)}
        {list(
          words.chains!,
          chain.map((c) => ({ ...c, code: undefined })),
          false,
        )}
        {canWrite && chain.length ? (
          <section className="space-y-2" aria-label={words.editChain}>
            {chain.map((c) => (
              <details key={c.id} className="rounded-lg border border-gray-200 bg-white px-4 py-3" data-chain-edit={c.id}>
                <summary className="cursor-pointer text-sm font-medium text-blue-800">
                  {words.editChain}: {c.name}{' '}
                  <span className="text-gray-600">
                    · {words.chainCodes}: {chainedUp(c)} / {c.codes.reduce((n, t) => n + t.total, 0)}
                  </span>
                </summary>
                <ChainEditForm
                  locale={locale}
                  channel={channel.key}
                  timeZone={zone}
                  chain={{ ...c, used: chainedUp(c), ended: hasEnded(c) }}
                  collectibles={collectibles}
                  words={words}
                />
              </details>
            ))}
          </section>
        ) : null}
        {canWrite ? <NewCampaignForm locale={locale} channel={channel.key} timeZone={zone} words={words} /> : null}
      </div>
    </ConsoleShell>
  );
}
