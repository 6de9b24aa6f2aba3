import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // `*.slow.test.ts` start real servers and wait out real timeouts. CI runs the suite twice (PGlite, then
    // PostgreSQL + Redis) and sets BUTIK_SKIP_SLOW=1 on the first pass, so they run once; `npm test` runs them.
    exclude: process.env.BUTIK_SKIP_SLOW === '1' ? ['**/node_modules/**', 'test/**/*.slow.test.ts'] : ['**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
