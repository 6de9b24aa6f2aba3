import { defineConfig } from 'drizzle-kit';

/**
 * Run through `npm run db:generate` (scripts/db-generate.mjs), which also strips drizzle-kit's "public". qualifier: the same
 * migrations must run in any schema (tests give every run its own).
 */
/** Migrations are generated from src/db/schema.ts and committed; both PGlite and PostgreSQL run them. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
});
