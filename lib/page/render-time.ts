import 'server-only';
import { cache } from 'react';

/**
 * The server's time of this render, one value per request (React's `cache`): what a live client leaf (a sale's
 * countdown, components/sale/use-sale-clock.ts) renders first in the browser, so hydration matches the server's HTML.
 */
export const renderTime = cache((): number => Date.now());
