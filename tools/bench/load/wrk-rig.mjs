// A load rig that costs little CPU: Debian's `wrk` (C, epoll) as the load generator and Debian's
// `nginx` as the mock upstream, answering the fixed OpenAI Chat Completions answer of
// ../shared/peers/payloads.mjs with `return 200 '...'` (nothing read from disk, no access log).
// Both are installed with apt-get when missing (scripts/services.mjs), nginx runs from a
// throw-away prefix on a free loopback port as one process (no master), and both are stopped by
// pid. Their CPU is measured exactly: nginx's from /proc around the load, wrk's by its own script
// (load/wrk-post.lua reads /proc/self/stat once its threads are done).
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, installPackages } from '../../../scripts/services.mjs';
import { HERE } from './args.mjs';
import { stop, waitPort } from './proc.mjs';

const CLK_TCK = 100;

/** `cmd args` as a child, under `taskset -c cpus` when `cpus` is given, output to `log` (a path) or piped. */
function spawnOn(cpus, cmd, args, log, env) {
  const [file, argv] = cpus ? ['taskset', ['-c', cpus, cmd, ...args]] : [cmd, args];
  const out = log ? openSync(log, 'a') : 'pipe';
  return spawn(file, argv, { stdio: ['ignore', out, log ? out : 'inherit'], env: { ...process.env, ...env } });
}

/** `text` as an nginx single-quoted string (nginx would expand a `$`, so none may occur). */
function nginxString(text) {
  if (text.includes('$')) throw new Error('an nginx return text cannot carry "$"');
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/**
 * nginx answering `POST /v1/chat/completions` with `answer` (JSON text), its prefix in `dir`,
 * pinned to `cpus` if given. Returns its origin (`http://127.0.0.1:PORT`), its pid and `stop()`.
 */
export async function startNginx(dir, answer, cpus) {
  installPackages(['nginx']);
  const prefix = join(dir, 'nginx');
  mkdirSync(join(prefix, 'temp'), { recursive: true });
  const port = await freePort();
  const temp = (name) => `${name}_temp_path ${join(prefix, 'temp', name)};`;
  const conf = `daemon off;
master_process off;
worker_processes 1;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  keepalive_requests 100000000;
  keepalive_timeout 300s;
  server {
    listen 127.0.0.1:${port};
    location = /v1/chat/completions {
      default_type application/json;
      return 200 ${nginxString(answer)};
    }
  }
}
`;
  const confFile = join(prefix, 'nginx.conf');
  writeFileSync(confFile, conf);
  const child = spawnOn(cpus, 'nginx', ['-p', prefix, '-c', confFile, '-e', join(prefix, 'error.log')], join(dir, 'nginx.log'));
  await waitPort(port);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => stop(child) };
}

/**
 * One wrk run: `connections` keep-alive connections on `threads` threads POSTing the file
 * `bodyFile` to `url` for `duration` seconds, pinned to `cpus` if given. Returns requests, req/s,
 * errors (non-2xx answers, connect / read / write errors and timeouts, summed), latency
 * percentiles (ms) and wrk's CPU seconds.
 */
export function runWrk({ url, bodyFile, connections, threads = 1, duration, cpus }) {
  installPackages(['wrk']);
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${duration}s`, '--timeout', '10s', '-s', join(HERE, 'wrk-post.lua'), url];
  return new Promise((done, fail) => {
    const child = spawnOn(cpus, 'wrk', args, undefined, { BODY_FILE: bodyFile });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('wrk-figures '));
      if (code !== 0 || !line) return fail(new Error(`wrk exited ${code}: ${out.slice(-500)}`));
      const f = JSON.parse(line.slice('wrk-figures '.length));
      done({
        requests: f.requests,
        rps: f.requests / (f.durationUs / 1e6),
        errors: f.status + f.connect + f.read + f.write + f.timeout,
        errorsByKind: { status: f.status, connect: f.connect, read: f.read, write: f.write, timeout: f.timeout },
        p50: f.p50Us / 1000,
        p99: f.p99Us / 1000,
        cpuSec: (f.userTicks + f.sysTicks) / CLK_TCK,
      });
    });
  });
}
