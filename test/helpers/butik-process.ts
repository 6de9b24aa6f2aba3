import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** Spawns `node bin/butik.js <args>` with exactly this environment (plus PATH); never the test's own. */
export function spawnButik(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['bin/butik.js', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
}

export type Finished = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** Runs the CLI to completion; a hang is killed and fails the test. */
export function runButik(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawnButik(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`butik ${args.join(' ')} timed out: ${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => { clearTimeout(timer); reject(error); });
    child.on('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, stdout, stderr }); });
  });
}

/** A running `butik serve`, as a person starts it beside the CLI. */
export type Serving = { url: string; child: ChildProcessWithoutNullStreams; stop(): Promise<number | null> };

/** Starts `butik serve` and resolves with its URL once it prints the ready line; it fails if the server exits first. */
export async function startServe(env: Record<string, string>): Promise<Serving> {
  const child = spawnButik(['serve'], env);
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /Butik ready at (\S+)/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`exited early (${code}): ${stderr}`)));
  });
  return {
    url,
    child,
    /** SIGTERM, then the exit code once it has shut down. */
    stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
