import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadJob, LoadResult, WorkerMessage, WorkerReply } from './load-types.ts';

export type LoadGenerator = { run(job: LoadJob): Promise<LoadResult>; close(): void };

/** Forks bench/load-worker.ts once; every measurement of the run goes through it, one at a time. */
export function startLoadGenerator(): LoadGenerator {
  const child: ChildProcess = fork(fileURLToPath(new URL('./load-worker.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (result: LoadResult) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  child.on('message', (reply: WorkerReply) => {
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (!waiter) return;
    if ('error' in reply) waiter.reject(new Error(`load generator: ${reply.error}`));
    else waiter.resolve(reply.result);
  });
  child.on('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`load generator exited with ${code}`));
    pending.clear();
  });
  return {
    run(job) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, job } satisfies WorkerMessage);
      });
    },
    close() {
      if (child.exitCode === null) child.kill('SIGTERM');
    },
  };
}
