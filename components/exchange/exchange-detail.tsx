import Link from 'next/link';
import { formatCount } from '@/lib/format/count';
import type { ExchangeDetail as ExchangeDetailData, ExchangeMine, InputSourceLink } from '@/lib/exchange/schema';
import type { Translator } from '@/lib/i18n/translator';
import { formatDate } from '@/lib/format/date';
import { CollectibleArt } from '@/components/ui/collectible-art';
import { ButtonLink } from '@/components/ui/button-link';
import { OfferDetail } from '@/components/layout/offer-detail';
import { RecipeSummary } from './recipe-summary';
import { ExchangeAction } from './exchange-action';
import { Card } from '@/components/ui/card';
import type { ChannelView } from '@/components/layout/channel-view';

const edition = (h: { number: number; amountNumber: number }) => `#${h.number}/${h.amountNumber}`;

/**
 * One exchange offer (spec §2 exchangeDetail): what it gives, the recipe, how many are left and the window. A visitor
 * gets a log-in link that comes back here; a logged-in user sees, per recipe line, how many they have and which of
 * their collectibles will be spent (the oldest ones, as the service spends them), how many more times they may
 * exchange, and the Exchange button, or why they cannot exchange. Where the store gives a collectible the recipe
 * spends (`sources`, by commodity id: a gift or a sale of the channel), a line the buyer is short of (or any line, for
 * a visitor) links to that page (issue 30: "needs two Starter Cards" with no way to where they are given).
 */
export function ExchangeDetail({
  detail,
  loginHref,
  sources = {},
  ...view
}: {
  detail: ExchangeDetailData;
  loginHref: string;
  sources?: Record<string, InputSourceLink>;
} & ChannelView) {
  const { t, timeZone, placeholderColor } = view;
  const { campaign, offer, mine } = detail;
  const time = (iso: string) => formatDate(iso, 'yyyy-MM-dd HH:mm', timeZone);
  // The holdings the exchange will spend per line: the oldest ones, up to the line's quantity.
  const spending = new Map((mine?.inputs ?? []).map((line) => [line.commodityId, line.holdings.slice(0, line.quantity)]));
  const have = new Map((mine?.inputs ?? []).map((line) => [line.commodityId, line.have]));

  return (
    <OfferDetail
      campaign={campaign}
      offer={offer}
      words={{
        window: t('exchange.window'),
        noEnd: t('exchange.noEnd'),
        limit: t('exchange.limit', { count: offer.limitPerUser }),
        left: offer.remaining > 0 ? t('exchange.left', { remaining: offer.remaining, total: offer.total }) : t('exchange.soldOut'),
      }}
      terms={<RecipeSummary offer={offer} t={t} testId="exchange-recipe" />}
      testIds={{ name: 'exchange-name', left: 'exchange-left' }}
      {...view}
    >
      {offer.inputs.length > 0 ? (
        <Card as="section" aria-labelledby="exchange-spend" className="p-4">
          <h3 id="exchange-spend" className="mb-2 text-base font-semibold text-skin-1">
            {t('exchange.recipe')}
          </h3>
          <ul className="flex flex-col gap-3">
            {offer.inputs.map((line) => {
              const held = have.get(line.commodity.id) ?? 0;
              const spent = spending.get(line.commodity.id) ?? [];
              return (
                <li key={line.commodity.id} className="flex gap-3" data-testid="exchange-line">
                  <CollectibleArt collectible={line.commodity} width="1rem" placeholderColor={placeholderColor} />
                  <div className="flex min-w-0 flex-1 flex-col gap-0.5">
                    <p className="flex items-baseline justify-between gap-2">
                      <span className="truncate text-sm font-medium text-neutral-800">{line.commodity.name}</span>
                      <span className="shrink-0 text-sm font-semibold text-skin-1">× {formatCount(line.quantity, view.locale)}</span>
                    </p>
                    {mine ? (
                      <>
                        <p
                          className={`text-xs ${held >= line.quantity ? 'text-neutral-500' : 'font-medium text-skin-sign'}`}
                          data-testid="exchange-have"
                        >
                          {t('exchange.youHave', { have: held, need: line.quantity })}
                        </p>
                        {spent.length > 0 ? (
                          <div className="flex flex-wrap items-center gap-1 text-xs text-neutral-500">
                            {/* Short of the recipe, nothing will be spent: the ones they have are just theirs. */}
                            <span>{held >= line.quantity ? t('exchange.willSpend') : t('exchange.yours')}</span>
                            <ul className="contents" data-testid="exchange-editions">
                              {spent.map((h) => (
                                <li key={h.id} className="rounded-full bg-skin-light px-2 py-0.5 font-semibold text-skin-1">
                                  {edition(h)}
                                </li>
                              ))}
                            </ul>
                          </div>
                        ) : null}
                      </>
                    ) : null}
                    {sources[line.commodity.id] && (!mine || held < line.quantity) ? (
                      <Link
                        href={sources[line.commodity.id]!.href}
                        className="mt-0.5 self-start text-xs font-semibold text-skin-1 underline underline-offset-2"
                        data-testid="exchange-get-input"
                      >
                        {t(sources[line.commodity.id]!.kind === 'gift' ? 'exchange.getAsGift' : 'exchange.getBySale', {
                          name: line.commodity.name,
                        })}
                      </Link>
                    ) : null}
                  </div>
                </li>
              );
            })}
          </ul>
          {mine ? (
            <p className="mt-3 border-t border-black/5 pt-2 text-xs text-neutral-500" data-testid="exchange-times-left">
              {t('exchange.timesLeft', { count: mine.timesLeft })}
            </p>
          ) : null}
        </Card>
      ) : mine ? (
        <p className="px-1 text-xs text-neutral-500" data-testid="exchange-times-left">
          {t('exchange.timesLeft', { count: mine.timesLeft })}
        </p>
      ) : null}

      {mine === null ? (
        <ButtonLink href={loginHref} data-testid="exchange-login">
          {t('exchange.loginToExchange')}
        </ButtonLink>
      ) : (
        <ExchangeAction
          campaignId={campaign.id}
          offerId={offer.id}
          holdingIds={[...spending.values()].flat().map((h) => h.id)}
          requiresCode={offer.requiresCode}
          refusal={refusalOf(mine, detail, t, time)}
          placeholderColor={placeholderColor}
          spend={offer.inputs.map((line) => ({
            quantity: line.quantity,
            name: line.commodity.name,
            editions: (spending.get(line.commodity.id) ?? []).map(edition),
          }))}
          outputName={offer.commodity.name}
        />
      )}
    </OfferDetail>
  );
}

/** Why the user cannot exchange now (ExchangeMine.reason), in words; null when they can. */
function refusalOf(
  mine: ExchangeMine,
  { campaign, offer }: ExchangeDetailData,
  t: Translator,
  time: (iso: string) => string,
): string | null {
  switch (mine.reason) {
    case null:
      return null;
    case 'notOpen':
      return `${t('exchange.notOpen')} · ${t('exchange.opensAt', { time: time(campaign.startTime) })}`;
    case 'ended':
      return t('exchange.ended');
    case 'soldOut':
      return t('exchange.soldOut');
    case 'limit':
      return t('exchange.limitReached');
    case 'missingInputs':
      // Names every line the user is short of (usually one).
      return mine.inputs
        .filter((line) => line.have < line.quantity)
        .map((line) =>
          t('exchange.missing', {
            need: line.quantity,
            name: offer.inputs.find((i) => i.commodity.id === line.commodityId)?.commodity.name ?? '',
          }),
        )
        .join(' ');
  }
}
