import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    // Every cache invalidation goes through lib/cache/store.ts, which publishes it to the other server processes
    // (issue 31; docs/caching.md): nothing else may build a tag clock or a tagged cache of its own.
    files: ['**/*.{ts,tsx,mjs}'],
    ignores: ['lib/cache/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/cache/tagged-cache', '@/lib/cache/tagged-cache'],
              message: 'Use the caches of lib/cache/store.ts (cachesOf, namedCache, cachedRead) and its invalidate calls.',
            },
          ],
        },
      ],
    },
  },
  globalIgnores([
    '.next*/**',
    '.data/**',
    'drizzle/**',
    'node_modules/**',
    'next-env.d.ts',
    'test-results/**',
    'playwright-report/**',
    'e2e/.artifacts/**',
    '*.tmp.mjs',
  ]),
]);
