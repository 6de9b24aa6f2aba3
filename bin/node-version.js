// Imported first by the launcher, so an older Node stops here with a sentence instead of a stack trace from a
// library that needs a newer one. Keep in step with "engines" in package.json.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(`butik needs Node.js 22.12 or newer (Node.js 24, the current LTS, is the one to use); this is ${process.version}.\n`);
  process.exit(1);
}
