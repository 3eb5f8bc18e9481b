#!/usr/bin/env node
// Real database servers for tests: PostgreSQL and Redis from Debian's packages (and HAProxy for
// the balancer test), each on a free loopback port with a throw-away data dir, stopped by pid.
// Chromium from Debian too, for the dashboard's browser test (driven by playwright-core).
//
// - Missing packages are installed with apt-get when running as root (CI and these machines
//   do); as another user the error says what to install. Present packages cost nothing.
// - `LLM_TEST_DATABASE_URL` / `LLM_TEST_REDIS_URL` point the tests at servers you run yourself
//   instead: nothing is installed or started then. `LLM_TEST_CHROMIUM` names a Chromium (or
//   Chrome) binary to use instead of Debian's.
//
// As a library: `const services = await startServices(); ...; await services.stop()`.
// As a command: `node scripts/services.mjs install` (packages only), or
// `node scripts/services.mjs start` (prints the URLs, stops on Ctrl-C).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Debian package -> a program it installs (how "present" is told); a package not named here installs a program of its own name (wrk, nginx). */
const PACKAGES = { postgresql: 'postgres', 'redis-server': 'redis-server', haproxy: 'haproxy', chromium: 'chromium' };

/** How long a server may take to accept connections after its start (default 30 s). */
export const SERVICE_START_TIMEOUT_MS = 30_000;

/** PostgreSQL's binaries folder (the newest installed major version), or undefined. */
function postgresBin() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).filter((name) => existsSync(join(base, name, 'bin', 'postgres')));
  versions.sort((a, b) => Number(a) - Number(b));
  return versions.length > 0 ? join(base, versions.at(-1), 'bin') : undefined;
}

function hasProgram(name) {
  if (name === 'postgres') return postgresBin() !== undefined;
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Installs the Debian packages among `names` that are missing (apt-get, non-interactive, quiet).
 * Returns the ones it installed. Throws when some are missing and this is not root.
 */
export function installPackages(names) {
  const missing = names.filter((name) => !hasProgram(PACKAGES[name] ?? name));
  if (missing.length === 0) return [];
  if (process.getuid?.() !== 0) {
    throw new Error(
      `tests need ${missing.join(', ')}: install them (apt-get install ${missing.join(' ')}) or set LLM_TEST_DATABASE_URL / LLM_TEST_REDIS_URL / LLM_TEST_CHROMIUM`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Wait for another apt run to finish rather than fail on its lock.
  const apt = (args) => execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  // A fresh machine has no package lists; an old list may name versions the mirror dropped.
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', '--no-install-recommends', ...missing]);
  return missing;
}

/** A port nothing listens on now, on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once 127.0.0.1:`port` accepts a connection; rejects after `timeoutMs`. */
export async function waitForPort(port, timeoutMs = SERVICE_START_TIMEOUT_MS, what = `port ${port}`) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${what} did not accept connections within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs `command` as the postgres user (initdb refuses root); as that user already, directly. */
function asPostgres(command, args) {
  const isRoot = process.getuid?.() === 0;
  const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  execFileSync(file, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * Starts PostgreSQL on a free port with a fresh cluster in `dir` (trust auth on loopback, no
 * fsync: the data is thrown away). Returns its URL and a stop function.
 */
export async function startPostgres(dir) {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (Debian package postgresql)');
  const port = await freePort();
  const data = join(dir, 'pg');
  if (process.getuid?.() === 0)
    chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  asPostgres(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  // No fsync (the data is thrown away), but commits stay synchronous: a test that stops the server
  // abruptly and starts it again (an outage) finds every committed row, as on a real server.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const start = () =>
    asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'pg.log'), '-w', '-t', String(SERVICE_START_TIMEOUT_MS / 1000), 'start']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () => asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']),
    /** Starts it again after `stop()`, same port and data (an outage's end, in tests). */
    start,
  };
}

/** Starts redis-server on `port` (default: a free one), nothing saved to disk, as a child process stopped by its pid. */
export async function startRedis(dir, port) {
  port ??= await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
    stdio: 'ignore',
    detached: true,
  });
  child.unref();
  await waitForPort(port, SERVICE_START_TIMEOUT_MS, 'redis-server');
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    stop: () => stopPid(child.pid),
  };
}

/** SIGTERM to `pid`, if it still runs. */
export function stopPid(pid) {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

/** The Chromium binary for browser tests: `LLM_TEST_CHROMIUM`, else Debian's `chromium` on the PATH. */
export function chromiumPath() {
  if (process.env.LLM_TEST_CHROMIUM) return process.env.LLM_TEST_CHROMIUM;
  return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
}

/**
 * PostgreSQL and Redis for tests: the URLs from `LLM_TEST_DATABASE_URL` / `LLM_TEST_REDIS_URL`
 * when set, else servers installed if needed and started here. `stop()` stops what was started
 * and removes its data. With `chromium`, Chromium is installed too when missing (`chromiumPath`).
 */
export async function startServices({ haproxy = false, chromium = false } = {}) {
  const givenDatabase = process.env.LLM_TEST_DATABASE_URL;
  const givenRedis = process.env.LLM_TEST_REDIS_URL;
  const wantChromium = chromium && !process.env.LLM_TEST_CHROMIUM;
  const wanted = [
    ...(givenDatabase ? [] : ['postgresql']),
    ...(givenRedis ? [] : ['redis-server']),
    ...(haproxy ? ['haproxy'] : []),
    ...(wantChromium ? ['chromium'] : []),
  ];
  const started = performance.now();
  const installed = installPackages(wanted);
  const installMs = performance.now() - started;
  const dir = mkdtempSync(join(tmpdir(), 'llm-services-'));
  const running = [];
  try {
    const postgres = givenDatabase ? undefined : await startPostgres(dir);
    if (postgres) running.push(postgres);
    const redis = givenRedis ? undefined : await startRedis(dir);
    if (redis) running.push(redis);
    return {
      databaseUrl: givenDatabase ?? postgres.url,
      redisUrl: givenRedis ?? redis.url,
      ...(chromium && { chromiumPath: chromiumPath() }),
      installed,
      installMs,
      startMs: performance.now() - started - installMs,
      stop() {
        for (const service of running.reverse()) {
          try {
            service.stop();
          } catch (error) {
            console.error(`could not stop a test server: ${error.message}`);
          }
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const service of running) service.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const command = process.argv[2];
  if (command === 'install') {
    const started = performance.now();
    const installed = installPackages(Object.keys(PACKAGES));
    console.log(`${installed.length > 0 ? `installed ${installed.join(', ')}` : 'all present'} in ${Math.round(performance.now() - started)} ms`);
  } else if (command === 'start') {
    const services = await startServices();
    console.log(
      `DATABASE_URL=${services.databaseUrl}\nREDIS_URL=${services.redisUrl}\n(install ${Math.round(services.installMs)} ms, start ${Math.round(services.startMs)} ms; Ctrl-C stops them)`,
    );
    const stop = () => {
      services.stop();
      process.exit(0);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    setInterval(() => {}, 1 << 30);
  } else {
    console.error('usage: node scripts/services.mjs install | start');
    process.exit(2);
  }
}
