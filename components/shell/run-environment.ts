'use client';

import { useSyncExternalStore } from 'react';
import { detectEnvironment, type RunEnvironment } from '@/lib/user-agent/environment';

const never = () => () => {};

function browserEnvironment(): RunEnvironment {
  const wx = (window as unknown as { __wxjs_environment?: string }).__wxjs_environment;
  return detectEnvironment(navigator.userAgent, wx);
}

/**
 * Where the page runs (spec §1), read from the browser; null on the server and while hydrating, so the server's HTML
 * and the first client render agree. Without the client store: the layout's tracker, the tip and "open in app" read it
 * on shared pages that carry no store (issue 34).
 */
export function useRunEnvironment(): RunEnvironment | null {
  return useSyncExternalStore(never, browserEnvironment, () => null);
}
