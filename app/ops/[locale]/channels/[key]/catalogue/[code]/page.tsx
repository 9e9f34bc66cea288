import { notFound } from 'next/navigation';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { commodities } from '@/lib/db/schema';
import { findCollectible, listCollectibles, listPrizes } from '@/lib/sale/catalogue';
import { consoleTitled, consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { catalogueWords } from '@/lib/page/console-sales';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelTabs } from '@/components/ops/channel-tabs';
import { CollectibleForm, PrizeEditor } from '@/components/ops/catalogue-forms';

type Props = { params: Promise<ConsoleChannelParams & { code: string }> };

export const generateMetadata = consoleTitled((t) => t('ops.catalogue.editTitle'));

/** One collectible (issue 32): its form, and a blind box's prizes with their odds and values. */
export default async function CollectiblePage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  const { code } = await params;
  const db = getDb();
  const [row] = /^[a-z0-9][a-z0-9-]{0,63}$/.test(code)
    ? await db
        .select({ id: commodities.id })
        .from(commodities)
        .where(and(eq(commodities.channelId, channel.id), eq(commodities.code, code)))
    : [];
  const collectible = row ? await findCollectible(db, channel.id, row.id) : null;
  if (!collectible) notFound();
  const canWrite = operator.role === 'owner' || operator.role === 'manager';
  const words = catalogueWords(t);
  const all = collectible.isBlindBox ? await listCollectibles(db, channel.id) : [];
  const codes = new Map(all.map((c) => [c.id, c.code]));
  const prizes = collectible.isBlindBox ? await listPrizes(db, collectible.id) : [];
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <ChannelTabs t={t} channel={channel} current="catalogue" />
      <h2 className="mb-3 text-lg font-semibold text-gray-900">{collectible.name}</h2>
      <p className="mb-4 text-sm text-gray-700">
        {t('ops.catalogue.minted')}: {collectible.minted} / {collectible.amountSku}
      </p>
      <CollectibleForm
        locale={locale}
        channel={channel.key}
        editing={collectible.code}
        canWrite={canWrite}
        words={words}
        initial={{ ...collectible, seriesName: collectible.seriesName ?? '' }}
      />
      {collectible.isBlindBox && (
        <section className="mt-10" aria-labelledby="prizes-heading">
          <h2 id="prizes-heading" className="mb-3 text-lg font-semibold text-gray-900">
            {t('ops.catalogue.prizesTitle')}
          </h2>
          <PrizeEditor
            locale={locale}
            channel={channel.key}
            box={collectible.code}
            canWrite={canWrite}
            words={words}
            choices={all.filter((c) => !c.isBlindBox).map((c) => ({ code: c.code, name: c.name }))}
            initial={prizes.map((p) => ({ collectible: codes.get(p.collectibleId) ?? '', weight: p.weight, value: p.value }))}
          />
        </section>
      )}
    </ConsoleShell>
  );
}
