const t0 = performance.now();
const cli = await import('./dist/server/cli.mjs');
const t1 = performance.now();
process.env.PORT = '3999';
const origLog = console.error;
await cli.main(['serve']);
origLog('import', (t1-t0).toFixed(0), 'main returned', (performance.now() - t0).toFixed(0), 'uptime', (process.uptime()*1000).toFixed(0));
process.exit(0);
