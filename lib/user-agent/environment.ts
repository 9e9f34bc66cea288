/**
 * Where the storefront runs (spec §1): wxapp (messaging-app mini-program web view), wxh5 (messaging-app in-app
 * browser), app (our native app: its user agent carries an `app/<version>` token), or a plain browser. Pure.
 */
export type RunEnvironment = 'wxapp' | 'wxh5' | 'app' | 'browser';

export function detectEnvironment(userAgent: string, wxjsEnvironment?: string | null): RunEnvironment {
  const ua = userAgent.toLowerCase();
  if (wxjsEnvironment === 'miniprogram' || ua.includes('miniprogram')) return 'wxapp';
  if (ua.includes('micromessenger')) return 'wxh5';
  if (/(^|[^a-z0-9])app\/\d/.test(ua)) return 'app';
  return 'browser';
}
