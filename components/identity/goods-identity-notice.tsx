'use client';

import { useEffect, useState } from 'react';
import { useStorefront } from '@/components/shell/storefront-provider';
import { IdentityNotice } from './identity-notice';

/** The buyer's own verification state (docs/api.md, issue 33), asked from the browser. */
export const STATUS_URL = '/api/market/api/identity/status';

type Standing = 'unknown' | 'unverified' | 'verified';

/**
 * The goods page's line above Buy where the channel asks a verified real name or an age for this sale (issue 33). The
 * page is the shared link page, cached per channel (docs/caching.md): its HTML is the same for every visitor and says
 * the rule in one line, as a signed-out visitor sees it. The buyer's own state is asked here, in the browser, and
 * only where this browser has logged in: a buyer not verified is told so with the link to verify and come back; a
 * verified one keeps the age rule where there is one (whether they meet it is the pay page's to say, which knows
 * their birth date; this page never does) and sees nothing more where only real-name is asked.
 *
 * The call is a plain fetch, not the API client: a session that ran out must leave a visitor reading the rule, not
 * send them to /login or raise a toast on a page they only opened.
 */
export function GoodsIdentityNotice({
  rule,
  notice,
  verify,
  ageAsked,
}: {
  /** The rule in one line: what a visitor sees, and the server's HTML. */
  rule: string;
  /** What a signed-in buyer who has not verified is told. */
  notice: string;
  verify: { href: string; label: string };
  /** An age is asked: the rule stays for a verified buyer too. */
  ageAsked: boolean;
}) {
  const phone = useStorefront((s) => s.user.phone);
  const locale = typeof document === 'undefined' ? undefined : document.documentElement.lang;
  const [standing, setStanding] = useState<Standing>('unknown');

  useEffect(() => {
    if (!phone) return;
    const controller = new AbortController();
    void (async () => {
      try {
        const response = await fetch(STATUS_URL, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(locale ? { 'accept-language': locale } : {}) },
          body: '{}',
          credentials: 'same-origin',
          signal: controller.signal,
        });
        const body = (await response.json()) as { code?: unknown; data?: { verified?: unknown } };
        if (body.code === 200 && typeof body.data?.verified === 'boolean') setStanding(body.data.verified ? 'verified' : 'unverified');
      } catch {
        // Offline, aborted, or not an answer: the rule as every visitor reads it stands.
      }
    })();
    return () => controller.abort();
  }, [phone, locale]);

  if (standing === 'unverified') return <IdentityNotice message={notice} verify={verify} />;
  if (standing === 'verified' && !ageAsked) return null;
  return <IdentityNotice message={rule} testId="identity-rule" />;
}
