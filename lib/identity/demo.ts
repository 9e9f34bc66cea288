import 'server-only';
import { vendorNoAnswer, type IdentityProvider } from './provider';

/**
 * The demo's identity vendor (IDENTITY_PROVIDER=demo; production refuses it, lib/env.ts): nothing leaves the machine.
 * Its rule is deterministic so the store's pages and end-to-end tests can show every answer (docs/demo.md):
 * - a name containing 不符 or "mismatch" (any case): the name and number do not match;
 * - a name containing 无记录 or "norecord": the vendor has no such number;
 * - a name containing 超时 or "timeout": the vendor does not answer (at once, not after 5 s);
 * - any other name with a well-formed number (the service has checked it): a match.
 */
export const demoIdentityProvider: IdentityProvider = {
  name: 'demo',
  async check({ name }) {
    const lower = name.toLowerCase();
    if (name.includes('超时') || lower.includes('timeout')) {
      console.error('[identity demo] the demo vendor plays one that did not answer');
      throw vendorNoAnswer();
    }
    if (name.includes('不符') || lower.includes('mismatch')) return 'mismatch';
    if (name.includes('无记录') || lower.includes('norecord')) return 'noRecord';
    return 'match';
  },
};
