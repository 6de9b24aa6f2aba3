// `npm run db:generate -- --name <change>`: drizzle-kit generate, then strip its "public". qualifier so
// the same migrations run in any schema (tests give every run its own).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

execFileSync('npx', ['drizzle-kit', 'generate', ...process.argv.slice(2)], { stdio: 'inherit' });
for (const file of readdirSync('drizzle').filter((name) => name.endsWith('.sql'))) {
  const path = `drizzle/${file}`;
  const sql = readFileSync(path, 'utf8');
  const stripped = sql.replaceAll('"public".', '');
  if (stripped !== sql) writeFileSync(path, stripped);
}
