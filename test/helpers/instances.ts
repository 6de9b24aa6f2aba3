import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type Instance = { name: string; url: string; child: ChildProcess; exited: Promise<number | null>; output: string[] };

/** Starts `butik serve` as a real process on a free port and resolves once it logs "butik listening". */
export function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['bin/butik.js', 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  if (child.stderr) createInterface({ input: child.stderr }).on('line', (line) => output.push(line));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${output.join('\n')}`)), 45_000);
    exited.then((code) => reject(new Error(`${name} exited with ${code}:\n${output.join('\n')}`)));
    if (!child.stdout) throw new Error('no stdout');
    createInterface({ input: child.stdout }).on('line', (line) => {
      output.push(line);
      const entry = parseLogLine(line);
      if (entry?.msg === 'butik listening' && typeof entry.port === 'number') {
        clearTimeout(timer);
        resolve({ name, url: `http://127.0.0.1:${entry.port}`, child, exited, output });
      }
    });
  });
}

function parseLogLine(line: string): { msg?: unknown; port?: unknown } | undefined {
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

