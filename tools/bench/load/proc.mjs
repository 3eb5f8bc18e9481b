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

/** `pid` and its descendants (from /proc). */
export function treePids(pid) {
  const out = [pid];
  try {
    for (const t of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) out.push(...treePids(Number(t)));
  } catch {
    /* gone */
  }
  return out;
}

/**
 * RSS (kB), high-water RSS (kB) and utime+stime (ticks) summed over `pid` and its children; also
 * utime and stime apart, and the ticks of each process's main thread (its JavaScript thread, for
 * Node) apart from its other threads (GC helpers, libuv's pool), and how often the main threads
 * went to sleep (voluntary context switches: for Node, an event-loop turn that found nothing to do).
 */
export function procStat(pid) {
  let rssKb = 0;
  let hwmKb = 0;
  let ticks = 0;
  let userTicks = 0;
  let sysTicks = 0;
  let mainTicks = 0;
  let mainSleeps = 0;
  const timesOf = (statFile) => {
    const fields = readFileSync(statFile, 'utf8').split(') ')[1].split(' ');
    return [Number(fields[11]), Number(fields[12])];
  };
  for (const p of treePids(pid)) {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      rssKb += Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
      hwmKb += Number(status.match(/VmHWM:\s+(\d+)/)?.[1] ?? 0);
      const [user, sys] = timesOf(`/proc/${p}/stat`);
      const [mainUser, mainSys] = timesOf(`/proc/${p}/task/${p}/stat`);
      ticks += user + sys;
      userTicks += user;
      sysTicks += sys;
      mainTicks += mainUser + mainSys;
      const mainStatus = readFileSync(`/proc/${p}/task/${p}/status`, 'utf8');
      mainSleeps += Number(mainStatus.match(/^voluntary_ctxt_switches:\s+(\d+)/m)?.[1] ?? 0);
    } catch {
      /* gone */
    }
  }
  return { rssKb, hwmKb, ticks, userTicks, sysTicks, mainTicks, mainSleeps };
}

/** Samples RSS every 100 ms; the returned function stops and gives peak RSS (MB) and CPU seconds (all, user, system, main threads). */
export function sampler(pid) {
  const start = procStat(pid);
  let peak = start.rssKb;
  const timer = setInterval(() => {
    peak = Math.max(peak, procStat(pid).rssKb);
  }, 100);
  return () => {
    clearInterval(timer);
    const end = procStat(pid);
    const sec = (key) => (end[key] - start[key]) / CLK_TCK;
    return { peakRssMb: Math.max(peak, end.rssKb) / 1024, cpuSec: sec('ticks'), userSec: sec('userTicks'), sysSec: sec('sysTicks'), mainSec: sec('mainTicks') };
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

/**
 * CPU ticks the whole machine (every core) spent busy so far, and the ticks its virtual CPUs
 * waited for the host (steal: time this guest could not run), from /proc/stat's first line.
 */
export function machineTicks() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return { busy: user + nice + system + irq + softirq, steal };
}
