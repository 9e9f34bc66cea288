import nextJest from 'next/jest.js';

const createJestConfig = nextJest({ dir: './' });

// ESM-only packages that jest must compile (use-intl and its message-format dependencies).
const ESM_PACKAGES = ['use-intl', 'icu-minify', 'intl-messageformat', '@formatjs', '@schummar'];

/** Unit, service and component tests. Services run against an in-memory PGlite (test/db.ts). */
const config = createJestConfig({
  testEnvironment: 'node',
  moduleNameMapper: {
    '^@/(.*)$': '<rootDir>/$1',
    '^server-only$': '<rootDir>/test/server-only-stub.ts',
  },
  testMatch: ['<rootDir>/**/*.test.ts', '<rootDir>/**/*.test.tsx'],
  testPathIgnorePatterns: ['/node_modules/', '/e2e/', '/.next/', '/.data/'],
  setupFilesAfterEnv: ['<rootDir>/test/setup.ts'],
  testTimeout: 60_000,
  // One worker per core: PGlite keeps a core busy, and on the two-core CI machine two workers take the suite in about
  // 70% of the time one takes (jest's default is one fewer worker than cores, i.e. one, run in band).
  maxWorkers: '100%',
});

export default async function jestConfig() {
  const resolved = await config();
  resolved.transformIgnorePatterns = [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`, '^.+\\.module\\.(css|sass|scss)$'];
  return resolved;
}
