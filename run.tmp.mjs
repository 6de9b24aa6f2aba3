const { main } = await import('./dist/server/cli.mjs');
await main(process.argv.slice(2));
