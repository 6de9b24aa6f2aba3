// `node scripts/mcp-conformance.mjs` (a CI step; needs `npm run build`): the official MCP conformance suite
// (@modelcontextprotocol/conformance) against a real `butik serve` on an embedded database in a temp directory and
// a free port. It runs every server scenario that applies to Butik (docs/architecture.md#mcp-conformance says why
// the others do not) and exits 1 when one fails. The resources scenario joins by itself once the server says it
// serves resources.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const CONFORMANCE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const ALWAYS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];
/** Needs only some resource listed, whatever it is; the other resources scenarios read the suite's own test:// fixtures. */
const WITH_RESOURCES = ['resources-list'];
const START_TIMEOUT_MS = 60_000;

const workDir = mkdtempSync(join(tmpdir(), 'butik-conformance-'));
const server = spawn(process.execPath, [join(ROOT, 'bin', 'butik.js'), 'serve'], {
  cwd: ROOT,
  // Exactly this environment: no DATABASE_URL or BUTIK_* of the caller's reaches the server.
  env: { PATH: process.env.PATH ?? '', BUTIK_DATA_DIR: join(workDir, 'data'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', BUTIK_SEED: 'none' },
  stdio: ['ignore', 'ignore', 'pipe'],
});
const exited = new Promise((resolve) => server.on('exit', resolve));

/** Resolves with the server's URL once it prints its ready line; rejects when it exits or takes too long. */
function ready() {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`butik serve was not ready within ${START_TIMEOUT_MS / 1000} s: ${stderr}`)), START_TIMEOUT_MS);
    server.stderr.on('data', (chunk) => {
      stderr += chunk.toString();
      const match = /Butik ready at (\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    server.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`butik serve exited (${code}) before it was ready: ${stderr}`));
    });
  });
}

/** Whether the server's initialize answer offers resources. */
async function servesResources(url) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'conformance-probe', version: '1' } },
    }),
  });
  const text = await response.text();
  // The answer is JSON or one server-sent event carrying it.
  const json = text.trimStart().startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
  return JSON.parse(json).result?.capabilities?.resources !== undefined;
}

/** One scenario; its report is printed only when it fails, a line otherwise. */
function runScenario(url, scenario) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CONFORMANCE, 'server', '--url', url, '--scenario', scenario, '-o', join(workDir, 'results')], {
      cwd: workDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk.toString(); });
    child.stderr.on('data', (chunk) => { output += chunk.toString(); });
    child.on('exit', (code) => {
      const passed = code === 0;
      const summary = /Passed: .*/.exec(output)?.[0] ?? `exit ${code}`;
      console.log(`${passed ? 'ok  ' : 'FAIL'} ${scenario}: ${summary}`);
      if (!passed) console.log(output);
      resolve(passed);
    });
  });
}

let failed = 0;
try {
  const url = `${await ready()}/api/mcp`;
  const scenarios = [...ALWAYS, ...(await servesResources(url) ? WITH_RESOURCES : [])];
  for (const scenario of scenarios) {
    if (!await runScenario(url, scenario)) failed += 1;
  }
  console.log(`${scenarios.length - failed} of ${scenarios.length} MCP conformance scenarios passed against ${url}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  failed += 1;
} finally {
  server.kill('SIGTERM');
  await exited;
  rmSync(workDir, { recursive: true, force: true });
}
process.exit(failed === 0 ? 0 : 1);
