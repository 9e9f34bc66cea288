'use client';

import type { RenderedSale } from '@/lib/sale/status';
import { useSaleClock } from './use-sale-clock';
import { SaleStatusView, type SaleStatusLabels } from './sale-status-view';

export type { SaleStatusLabels } from './sale-status-view';

/**
 * A sale's state as a badge, live (./sale-status-view.tsx draws it): coming soon counts down and turns into "On sale"
 * (or "Sold out") at the opening second without a reload.
 */
export function LiveSaleStatus({
  sale,
  renderedAt,
  labels,
  testId = 'sale-status',
}: {
  sale: RenderedSale;
  renderedAt: number;
  labels: SaleStatusLabels;
  /** The badge's test id: a campaign not open yet counts down with this badge too (components/layout/campaign-window.tsx). */
  testId?: string;
}) {
  const { status, secondsLeft } = useSaleClock(sale, renderedAt);
  return <SaleStatusView status={status} secondsLeft={secondsLeft} labels={labels} testId={testId} />;
}
