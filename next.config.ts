import type { NextConfig } from 'next';
import { PHASE_PRODUCTION_BUILD } from 'next/constants';
import type { RemotePattern } from 'next/dist/shared/lib/image-config';
import { parseEnv, EnvError, type Env } from './lib/env';
import { configHeaders } from './lib/security/headers';

const nextConfig: NextConfig = {
  // NEXT_DIST_DIR lets two builds live side by side (e.g. two e2e servers on one machine).
  distDir: process.env.NEXT_DIST_DIR ?? '.next',
  reactStrictMode: true,
  // The stylesheet inline in each document's <head> instead of a <link> (issue 34; docs/caching.md, "Painted from the
  // page alone"): a phone on a slow link paints the page from its HTML alone, with no second round trip for the style
  // and no share of the link taken from the scripts. The router's flight answers keep the <link>, which React matches
  // to the inline style already in the page (nothing is fetched again). Measured: docs/decisions.md.
  experimental: { inlineCss: true },
  poweredByHeader: false,
  // Keep PGlite's WASM out of the bundles (DESIGN §11), and Alipay's SDK (its HTTP client would be bundled into each
  // payment route, about 1 MB apiece): both are loaded from node_modules at run time.
  serverExternalPackages: ['@electric-sql/pglite', 'alipay-sdk'],
  images: {
    formats: ['image/avif', 'image/webp'],
    // The optimiser takes only Next's own imported images from this site (issue 29): the storefront's art is SVG
    // (served as is) and the proxy answers any other path with a redirect, which the optimiser turned into a 500.
    // And uploaded images of the folder store (issue 31): /media/<hex>.webp, the shape app/media/[file]/route.ts
    // answers and the proxy lets through (lib/media/key.ts), so no other /media path reaches the optimiser.
    localPatterns: [{ pathname: '/_next/static/media/**' }, { pathname: '/media/+([0-9a-f]).webp' }],
    // Remote images: the media hosts of MEDIA_ORIGINS, set in config() below, the ones a skin may name.
    remotePatterns: [],
  },
  // Security headers on every response, API and static files included (DESIGN §10); pages also get their nonce CSP
  // from the proxy (proxy.ts). HSTS only over HTTPS (X-Forwarded-Proto from the trusted entry server).
  async headers() {
    return configHeaders();
  },
  // Each channel's favicon, drawn from its brand image for the request's host (lib/brand-icon).
  async rewrites() {
    return [{ source: '/favicon.ico', destination: '/api/icon/favicon.ico' }];
  },
};

// Env validated at start (DESIGN §3): a bad variable stops `next dev` / `next start` with a clear message;
// `next build` checks the shape only (production secrets are the runtime's, not the build machine's).
export default function config(phase: string): NextConfig {
  let env: Env;
  try {
    env = parseEnv(process.env, { forStart: phase !== PHASE_PRODUCTION_BUILD });
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  return { ...nextConfig, images: { ...nextConfig.images, remotePatterns: mediaRemotePatterns(env.MEDIA_ORIGINS) } };
}

/** next/image's remote patterns for the media hosts a skin image may come from (MEDIA_ORIGINS; lib/channel/skin.ts). */
function mediaRemotePatterns(origins: readonly string[]): RemotePattern[] {
  return origins.map((origin) => {
    const url = new URL(origin);
    return { protocol: 'https', hostname: url.hostname, port: url.port, pathname: '/**' };
  });
}
