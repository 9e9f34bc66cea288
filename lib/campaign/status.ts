/**
 * The window of a campaign (gift campaigns, exchange activities, chain-up campaigns): 0 not open yet, 1 open, 2 ended,
 * derived at read time. A campaign without an end time never ends. Documented in docs/api.md.
 */
export type CampaignStatus = 0 | 1 | 2;

export function campaignStatus(window: { startTime: Date; endTime: Date | null }, now: Date): CampaignStatus {
  if (now < window.startTime) return 0;
  if (window.endTime && now >= window.endTime) return 2;
  return 1;
}

/** Open ones first, then upcoming, then ended (the order of every campaign list). */
export const STATUS_ORDER: Record<CampaignStatus, number> = { 1: 0, 0: 1, 2: 2 };
