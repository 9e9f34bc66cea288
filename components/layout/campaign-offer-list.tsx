import type { ReactNode } from 'react';
import type { CampaignStatus } from '@/lib/campaign/status';
import type { ArtOf } from '@/components/ui/collectible-art';
import { Card } from '@/components/ui/card';
import { CardList } from '@/components/ui/card-list';
import type { EmptyArt } from '@/components/ui/empty-state';
import { CollectibleRow } from '@/components/ui/collectible-row';
import { CampaignStatusBadge, CampaignWindow } from './campaign-window';
import type { ChannelView } from '@/components/layout/channel-view';

type Offer = { id: string; commodity: ArtOf; remaining: number; total: number };
type Campaign<O extends Offer> = {
  id: string;
  name: string;
  description: string;
  status: CampaignStatus;
  startTime: string;
  endTime: string | null;
  offers: O[];
};

/** The test ids of a list's parts, kept per kind of campaign as the end-to-end suite knows them. */
type TestIds = { list: string; empty: string; campaign: string; window?: string; status: string; offer: string; left: string };

/**
 * Campaigns with offers (issue 30: one list for spec §2 active's exchange activities and the receive pages' gift
 * campaigns): each campaign's name, window and state, its description, and its offers, each a link to its detail page
 * with the collectible it gives, its terms (what it takes, whom it is for) and how many are left.
 */
export function CampaignOfferList<O extends Offer>({
  campaigns,
  empty,
  testIds,
  offerHref,
  terms,
  left,
  countdown = false,
  ...view
}: {
  campaigns: Campaign<O>[];
  empty: { art: EmptyArt; text: string };
  testIds: TestIds;
  offerHref: (campaign: Campaign<O>, offer: O) => string;
  /** An offer's terms, in one line under its name. */
  terms: (offer: O) => ReactNode;
  /** How many of an offer are left, in words. */
  left: (offer: O) => string;
  /** Whether a campaign not open yet counts down to its opening (./campaign-window.tsx). */
  countdown?: boolean;
} & ChannelView) {
  const { t, timeZone, placeholderColor } = view;
  return (
    <CardList items={campaigns} empty={{ ...empty, 'data-testid': testIds.empty }} data-testid={testIds.list} spacing="campaigns">
      {(c) => (
        <Card as="li" key={c.id} className="overflow-hidden" data-testid={testIds.campaign}>
          <div className="flex items-start justify-between gap-2 px-3 pt-3">
            <div className="min-w-0">
              <h2 className="truncate text-base font-semibold text-skin-1">{c.name}</h2>
              <CampaignWindow campaign={c} t={t} timeZone={timeZone} testId={testIds.window} />
            </div>
            <CampaignStatusBadge
              status={c.status}
              t={t}
              testId={testIds.status}
              countdown={countdown ? { startTime: c.startTime, endTime: c.endTime, timeZone } : undefined}
            />
          </div>
          {c.description ? <p className="px-3 pt-1 text-sm text-neutral-600">{c.description}</p> : null}
          <ul className="flex flex-col gap-2 p-3">
            {c.offers.map((o) => (
              <li key={o.id}>
                <CollectibleRow
                  collectible={o.commodity}
                  placeholderColor={placeholderColor}
                  href={offerHref(c, o)}
                  look="outlined"
                  data-testid={testIds.offer}
                  trailing={
                    <span aria-hidden="true" className="self-center text-lg text-neutral-300">
                      ›
                    </span>
                  }
                >
                  <p className="truncate text-base font-medium text-skin-1">{o.commodity.name}</p>
                  {terms(o)}
                  <p className="text-xs text-neutral-500" data-testid={testIds.left}>
                    {left(o)}
                  </p>
                </CollectibleRow>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </CardList>
  );
}
