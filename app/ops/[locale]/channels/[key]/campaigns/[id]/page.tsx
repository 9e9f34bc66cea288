import Link from 'next/link';
import { notFound } from 'next/navigation';
import { asc, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { commodities } from '@/lib/db/schema';
import { campaignRecord, listOffers } from '@/lib/campaign/manage';
import { listBatches } from '@/lib/redeem-code/batches';
import { AppError } from '@/lib/procedure/errors';
import { consoleTitled, consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelTabs } from '@/components/ops/channel-tabs';
import { AddOfferForm, BatchPanel, type BatchRow } from '@/components/ops/campaign-panel';
import { CampaignEditForm, OfferEditForm } from '@/components/ops/campaign-edit';
import { campaignWords } from '../words';

type Props = { params: Promise<ConsoleChannelParams & { id: string }> };

export const generateMetadata = consoleTitled((t) => t('ops.channel.tab.campaigns'));

/**
 * One campaign of the channel (issue 32): its offers (what each gives, asks, has left, per buyer), the form that adds
 * one (a gift or an exchange recipe), and for each offer that asks a code its batches: generate, import, export once,
 * revoke a batch or a code, and who used them (masked). 404 for another channel's campaign.
 */
export default async function CampaignPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  const { id } = await params;
  const db = getDb();
  const now = new Date();
  const campaignId = /^\d{1,9}$/.test(id) ? Number(id) : NaN;
  const campaign = Number.isFinite(campaignId)
    ? await campaignRecord(db, channel.id, campaignId).catch((e: unknown) => {
        if (e instanceof AppError && e.code === 404) return null;
        throw e;
      })
    : null;
  if (!campaign) notFound();
  const zone = channel.timeZone;
  const words = campaignWords(t, zone);
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone });
  const offers = await listOffers(db, channel.id, campaign.id);
  const collectibles = await db
    .select({ id: commodities.id, name: commodities.name })
    .from(commodities)
    .where(eq(commodities.channelId, channel.id))
    .orderBy(asc(commodities.name))
    .limit(500);
  const nameOf = (commodityId: number) => collectibles.find((c) => c.id === commodityId)?.name ?? `#${commodityId}`;
  const batchesOf = new Map<number, BatchRow[]>();
  for (const o of offers.filter((o) => o.requiresCode)) {
    batchesOf.set(
      o.id,
      (await listBatches(db, channel.id, o.id, now)).map((b) => ({
        id: b.id,
        size: b.size,
        source: b.source,
        expires: b.expiresAt ? when.format(new Date(b.expiresAt)) : null,
        used: b.used,
        exportable: b.exportable,
        exported: b.exportedAt ? when.format(new Date(b.exportedAt)) : null,
        revoked: b.revokedAt ? when.format(new Date(b.revokedAt)) : null,
      })),
    );
  }
  const canWrite = operator.role === 'owner' || operator.role === 'manager';
  const ended = campaign.endTime !== null && new Date(campaign.endTime).getTime() <= now.getTime();
  const windowText = `${when.format(new Date(campaign.startTime))} – ${campaign.endTime ? when.format(new Date(campaign.endTime)) : words.never} (${zone})${ended ? ` · ${words.ended}` : ''}`;
  const kindWord = { holders: words.kindHolders, code: words.kindCode, welcome: words.kindWelcome, recipe: words.kindRecipe };
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <ChannelTabs t={t} channel={channel} current="campaigns" />
      <div className="space-y-6">
        <p className="text-sm">
          <Link href={`/channels/${channel.key}/campaigns`} className="text-blue-800 underline underline-offset-2">
            {words.back}
          </Link>
        </p>
        <div>
          <h2 className="text-xl font-semibold text-gray-900">{campaign.name}</h2>
          <p className="text-sm text-gray-700">
            <span className="font-mono">{campaign.code}</span> · {campaign.kind === 'exchange' ? words.kindExchange : words.kindGift} ·{' '}
            {windowText}
          </p>
        </div>
        {canWrite ? (
          <CampaignEditForm locale={locale} channel={channel.key} timeZone={zone} campaign={{ ...campaign, ended }} words={words} />
        ) : null}
        <section className="space-y-4" aria-label={words.offers}>
          <h2 className="text-lg font-semibold text-gray-900">{words.offers}</h2>
          {offers.length === 0 ? <p className="text-sm text-gray-600">{words.none}</p> : null}
          {offers.map((o) => (
            <article key={o.id} className="space-y-3 rounded-lg border border-gray-200 bg-white p-4" data-offer={o.id}>
              <p className="text-sm text-gray-900">
                <span className="font-semibold">{nameOf(o.commodityId)}</span> · {kindWord[o.kind]} · {words.offerCount}: {o.taken} /{' '}
                {o.total} · {words.offerLimit}: {o.limitPerUser}
                {o.requiresCommodityId ? ` · ${words.requires}: ${nameOf(o.requiresCommodityId)}` : ''}
                {o.inputs.length ? ` · ${words.asks}: ${o.inputs.map((i) => `${nameOf(i.commodityId)} × ${i.quantity}`).join(' + ')}` : ''}
              </p>
              {canWrite ? (
                <details className="group" data-offer-edit={o.id}>
                  <summary className="cursor-pointer text-sm font-medium text-blue-800 underline underline-offset-2">{words.edit}</summary>
                  <OfferEditForm locale={locale} channel={channel.key} offer={o} collectibles={collectibles} words={words} />
                </details>
              ) : null}
              {o.requiresCode ? (
                <BatchPanel
                  locale={locale}
                  channel={channel.key}
                  offerId={o.id}
                  timeZone={zone}
                  batches={batchesOf.get(o.id) ?? []}
                  canWrite={canWrite}
                  words={words}
                />
              ) : null}
            </article>
          ))}
        </section>
        {canWrite ? (
          <AddOfferForm
            locale={locale}
            channel={channel.key}
            campaignId={campaign.id}
            exchange={campaign.kind === 'exchange'}
            collectibles={collectibles}
            words={words}
          />
        ) : null}
      </div>
    </ConsoleShell>
  );
}
