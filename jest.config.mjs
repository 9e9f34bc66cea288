import nextJest from 'next/jest.js';

const createJestConfig = nextJest({ dir: './' });

/** Unit, service and component tests. Services run against an in-memory PGlite (test/db.ts). */
export default createJestConfig({
  testEnvironment: 'node',
  moduleNameMapper: {
    '^@/(.*)$': '<rootDir>/$1',
    '^server-only$': '<rootDir>/test/server-only-stub.ts',
  },
  testMatch: ['<rootDir>/**/*.test.ts', '<rootDir>/**/*.test.tsx'],
  testPathIgnorePatterns: ['/node_modules/', '/e2e/', '/.next/', '/.data/'],
  testTimeout: 30_000,
});
