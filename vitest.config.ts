import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // `npm test` runs every file on the embedded database. Files named `*.pg.test.ts` hold behaviour that
    // depends on the store or on several processes sharing it; `npm run test:stores` (CI's second pass, with
    // TEST_DATABASE_URL and REDIS_URL) runs only those. test/lint/store-marking.test.ts says which files must be.
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/password-cost.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
