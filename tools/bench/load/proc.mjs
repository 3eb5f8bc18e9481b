// Process helpers for the load run: start pinned to a CPU, stop by PID, wait for a port, and
// sample RSS and CPU time of a process tree from /proc (Linux only).
import { execFileSync, spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';

const CLK_TCK = 100;
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `def` ({cmd, args, cwd?, env?}) under `taskset -c cpu`, logging to `<logDir>/<name>.log`. */
export function startPinned(def, cpu, logDir, name) {
  const log = openSync(join(logDir, `${name}.log`), 'a');
  return spawn('taskset', ['-c', cpu, def.cmd, ...def.args], {
    cwd: def.cwd,
    env: { ...process.env, ...def.env },
    stdio: ['ignore', log, log],
  });
}

/** SIGTERM, then SIGKILL after 3 s; only the child we started. */
export async function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode) return;
  child.kill('SIGTERM');
  for (let i = 0; i < 30 && child.exitCode === null && !child.signalCode; i++) await sleep(100);
  if (child.exitCode === null && !child.signalCode) child.kill('SIGKILL');
  await sleep(200);
}

export const exited = (child) => child.exitCode !== null || child.signalCode !== null;

export async function waitPort(port, ms = 30_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`port ${port} not listening after ${ms} ms`);
}

function treePids(pid) {
  const out = [pid];
  try {
    for (const t of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) out.push(...treePids(Number(t)));
  } catch {
    /* gone */
  }
  return out;
}

/** RSS (kB), high-water RSS (kB) and utime+stime (ticks) summed over `pid` and its children. */
export function procStat(pid) {
  let rssKb = 0;
  let hwmKb = 0;
  let ticks = 0;
  for (const p of treePids(pid)) {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      rssKb += Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
      hwmKb += Number(status.match(/VmHWM:\s+(\d+)/)?.[1] ?? 0);
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      /* gone */
    }
  }
  return { rssKb, hwmKb, ticks };
}

/** Samples RSS every 100 ms; the returned function stops and gives peak RSS (MB) and CPU seconds. */
export function sampler(pid) {
  const start = procStat(pid);
  let peak = start.rssKb;
  const timer = setInterval(() => {
    peak = Math.max(peak, procStat(pid).rssKb);
  }, 100);
  return () => {
    clearInterval(timer);
    const end = procStat(pid);
    return { peakRssMb: Math.max(peak, end.rssKb) / 1024, cpuSec: (end.ticks - start.ticks) / CLK_TCK };
  };
}

/**
 * Pins the process listening on loopback `port` (a database server the run started), all its
 * threads, to `cpu`; processes it forks later (PostgreSQL's backends) inherit it. Found by its
 * port with `ss`, so only that server is touched.
 */
export function pinListener(port, cpu) {
  const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const pid = Number(/pid=(\d+)/.exec(out)?.[1]);
  if (!pid) throw new Error(`no process found listening on port ${port}`);
  execFileSync('taskset', ['-a', '-cp', cpu, String(pid)], { stdio: 'ignore' });
}
