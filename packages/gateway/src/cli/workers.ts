import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { wholeNumberFlag } from './whole-number.js';

/** How long the primary waits before replacing a worker that died on its own (default 1 s). */
export const WORKER_RESTART_DELAY_MS = 1_000;

/** `--workers N|auto`: how many gateway processes share the port (default 1; `auto`: one per core). */
export function parseWorkers(value: string | undefined, cores = availableParallelism()): number | undefined {
  if (value === undefined) return 1;
  if (value === 'auto') return cores;
  const count = wholeNumberFlag(value, 1024);
  return count !== undefined && count >= 1 ? count : undefined;
}

/** True in a process `serve --workers` started (it serves as a single gateway). */
export function isWorker(): boolean {
  return cluster.isWorker;
}

/** In a worker: closes the channel to the primary, so the process can exit once its work is done. */
export function leaveCluster(): void {
  if (cluster.isWorker) cluster.worker?.disconnect();
}

/**
 * The primary of `serve --workers N`: starts N copies of this command line (node:cluster), which
 * share the listening port (the primary hands connections out round robin). SIGINT / SIGTERM go
 * to every worker, each draining as a single gateway does, and resolve with 0 once all exited
 * (1 if one failed). SIGHUP reloads every worker's config. A worker that dies on its own is
 * replaced after {@link WORKER_RESTART_DELAY_MS}.
 */
export function runWorkers(count: number, log: (line: string) => void): Promise<number> {
  // Round robin on every platform (Windows defaults to letting the OS choose).
  cluster.schedulingPolicy = cluster.SCHED_RR;
  let stopping = false;
  let failed = false;
  const fork = () => cluster.fork();
  return new Promise((resolve) => {
    const workers = () => Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
    const reload = () => {
      for (const worker of workers()) worker.process.kill('SIGHUP');
    };
    const stop = (signal: NodeJS.Signals) => () => {
      stopping = true;
      for (const worker of workers()) worker.process.kill(signal);
    };
    const onInt = stop('SIGINT');
    const onTerm = stop('SIGTERM');
    process.on('SIGHUP', reload);
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
      // A worker stopped by a signal before it could handle one (still starting) failed nothing.
      if (code !== 0 && code !== null) failed = true;
      if (!stopping) {
        log(`llm-gateway worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
        setTimeout(() => {
          if (!stopping) fork();
        }, WORKER_RESTART_DELAY_MS).unref();
        return;
      }
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        process.off('SIGHUP', reload);
        process.off('SIGINT', onInt);
        process.off('SIGTERM', onTerm);
        resolve(failed ? 1 : 0);
      }
    });
    for (let index = 0; index < count; index += 1) fork();
  });
}
