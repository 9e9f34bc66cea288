'use client';

import { useEffect } from 'react';
import { useRouter } from 'next/navigation';

/** How often, and for how long, a page waits for the chain ledger to confirm a holding. */
const EVERY_MS = 1500;
const FOR_MS = 120_000;

/**
 * Reloads the page's server data while a chain-up waits for the ledger (the chain-up job runs every few seconds), so
 * the tx hash appears without a manual refresh; it stops when the page renders without it, or after two minutes.
 */
export function ChainStatusRefresh() {
  const router = useRouter();
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > FOR_MS) clearInterval(timer);
      else router.refresh();
    }, EVERY_MS);
    return () => clearInterval(timer);
  }, [router]);
  return null;
}
