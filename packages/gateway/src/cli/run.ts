import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { PROTOCOL_IDS, type ProtocolId, isProtocolId } from '@llm/core';
import { SERVED_PROTOCOLS, type ServedProtocol } from '../served-protocols.js';
import { ConfigError } from '../config/expand-env.js';
import { type LedgerLocation, ledgerOf } from '../config/ledger-path.js';
import { describeServer } from '../store/store-unavailable.js';
import { loadConfigFile } from '../config/load.js';
import { MAX_TIMER_MS } from '../config/schema.js';
import { formatUsage, parseSince, type UsageLine, usageReport } from '../ledger/report.js';
import { isUsageGrouping } from '../ledger/usage-query.js';
import { startMockUpstream } from '../mock/server.js';
import { startGateway } from '../server/start.js';
import { isWorker, leaveCluster, parseWorkers, runWorkers } from './workers.js';
import { reloadOnSignal } from './config-reload.js';
import { type TranslateKind, translate } from '../translate.js';
import { HELP, type CommandName, COMMANDS } from './help.js';
import { startPlayground } from './mock-playground.js';
import { GATEWAY_VERSION } from './version.js';
import { runKeysCommand } from './keys.js';
import { wholeNumberFlag } from './whole-number.js';

/** Where the CLI writes, so tests can capture it. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** stdin text (for `translate` without a file). */
  readStdin(): Promise<string>;
  env: Record<string, string | undefined>;
  /** Called with a stop function once a long-running command (serve, mock) is up. */
  onRunning?(stop: () => Promise<void>): void;
  /**
   * Tunes the process `serve` runs in, before it starts (the bin passes `tuneServeProcess`; tests
   * running the CLI inside their own process leave it out).
   */
  tuneServeProcess?(env: Record<string, string | undefined>): void;
}

/** A one-line usage error. */
class UsageError extends Error {}

/** Runs the CLI; resolves to the exit code (long-running commands resolve when stopped). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    io.out(HELP.main);
    return command ? 0 : 1;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    io.out(GATEWAY_VERSION);
    return 0;
  }
  if (!COMMANDS.includes(command as CommandName)) {
    io.err(`llm-gateway: unknown command "${command}" (try llm-gateway --help)`);
    return 2;
  }
  const name = command as CommandName;
  try {
    if (rest.includes('--help') || rest.includes('-h')) {
      io.out(HELP[name]);
      return 0;
    }
    return await COMMAND_RUNNERS[name](rest, io);
  } catch (error) {
    if (error instanceof ConfigError) {
      // Every config problem, one line each, so one edit can fix them all.
      for (const line of error.message.split('\n')) io.err(`llm-gateway ${name}: ${line}`);
      return 2;
    }
    if (error instanceof UsageError || isParseArgsError(error)) {
      io.err(`llm-gateway ${name}: ${(error as Error).message.split('\n')[0]}`);
      return 2;
    }
    io.err(`llm-gateway ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

function protocolFlag(value: string | undefined, flag: string): ProtocolId {
  if (!value) throw new UsageError(`${flag} is required (${PROTOCOL_IDS.join(', ')})`);
  if (!isProtocolId(value)) throw new UsageError(`${flag}: unknown protocol "${value}" (${PROTOCOL_IDS.join(', ')})`);
  return value;
}

/** A protocol the gateway serves over HTTP (mock upstreams speak only those). */
function servedProtocolFlag(value: string | undefined, flag: string): ServedProtocol {
  if (!value) throw new UsageError(`${flag} is required (${SERVED_PROTOCOLS.join(', ')})`);
  const served = SERVED_PROTOCOLS.find((protocol) => protocol === value);
  if (!served) throw new UsageError(`${flag}: unknown protocol "${value}" (${SERVED_PROTOCOLS.join(', ')})`);
  return served;
}

/** `--port`: 0 (any free port) to 65535. */
function portFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = wholeNumberFlag(value, 65535);
  if (port === undefined) throw new UsageError(`--port: expected a port number, got "${value}"`);
  return port;
}

/** `--drain-ms`: up to {@link MAX_TIMER_MS} (a longer timer would fire at once). */
function drainFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = wholeNumberFlag(value, MAX_TIMER_MS);
  if (ms === undefined) throw new UsageError(`--drain-ms: expected a whole number of milliseconds from 0 to ${MAX_TIMER_MS}, got "${value}"`);
  return ms;
}

/** Waits for SIGINT / SIGTERM (or the test's stop), then runs `stop`. */
function untilStopped(io: CliIo, stop: () => Promise<void>): Promise<number> {
  // A worker of `serve --workers` keeps listening after the first signal: a terminal's Ctrl-C
  // reaches it along with its primary's, and the second must not kill it mid-drain.
  const worker = isWorker();
  return new Promise((resolve) => {
    let stopping = false;
    const done = async () => {
      if (stopping) return;
      stopping = true;
      if (!worker) {
        process.off('SIGINT', done);
        process.off('SIGTERM', done);
      }
      await stop();
      resolve(0);
    };
    process[worker ? 'on' : 'once']('SIGINT', done);
    process[worker ? 'on' : 'once']('SIGTERM', done);
    io.onRunning?.(done);
  });
}

const COMMAND_RUNNERS: Record<CommandName, (args: string[], io: CliIo) => Promise<number>> = {
  keys: runKeysCommand,
  async serve(args, io) {
    const { values } = parseArgs({
      args,
      options: {
        config: { type: 'string', short: 'c' },
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        mock: { type: 'boolean' },
        'drain-ms': { type: 'string' },
        'watch-config': { type: 'boolean' },
        workers: { type: 'string' },
      },
      strict: true,
    });
    const workers = parseWorkers(values.workers);
    if (workers === undefined) throw new UsageError(`--workers: expected a number of processes or auto, got "${values.workers}"`);
    // Checked before the config is read, and by a primary that starts workers, which never uses them.
    const drainMs = drainFlag(values['drain-ms']);
    const port = portFlag(values.port);
    if (values.mock) {
      if (values.config) throw new UsageError('--mock serves its own config: leave out --config');
      const playground = await startPlayground({ port, host: values.host });
      // Settings are for a person: stderr, so stdout keeps only the gateway's JSON log lines.
      io.err(playground.settings);
      return untilStopped(io, () => playground.close());
    }
    const configPath = values.config;
    if (!configPath) throw new UsageError('--config <file> (or --mock) is required');
    const config = loadConfigFile(configPath, io.env);
    // The primary only checks the config (a bad one fails here once) and runs the workers.
    if (workers > 1 && !isWorker()) return runWorkers(workers, io.err);
    io.tuneServeProcess?.(io.env);
    const gateway = await startGateway(config, { port, host: values.host, drainMs });
    const stopReloading = reloadOnSignal(gateway, () => loadConfigFile(configPath, io.env), { watchFile: values['watch-config'] ? configPath : undefined });
    // stdout carries the JSON log lines only (`| jq`): the banner goes to stderr.
    io.err(`llm-gateway listening on ${gateway.url}`);
    const code = await untilStopped(io, () => {
      stopReloading();
      return gateway.close();
    });
    // A worker's channel to its primary would keep it running.
    leaveCluster();
    return code;
  },
  async mock(args, io) {
    const { values } = parseArgs({
      args,
      options: { protocol: { type: 'string' }, port: { type: 'string', short: 'p' }, host: { type: 'string' }, workdir: { type: 'string' } },
      strict: true,
    });
    const protocol = servedProtocolFlag(values.protocol, '--protocol');
    const mock = await startMockUpstream({ protocol, port: portFlag(values.port) ?? 0, host: values.host, workdir: values.workdir });
    io.out(`mock ${protocol} upstream listening on ${mock.url} (base URL ${mock.baseUrl})`);
    return untilStopped(io, () => mock.close());
  },
  async translate(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { from: { type: 'string' }, to: { type: 'string' }, kind: { type: 'string' }, model: { type: 'string' } },
      strict: true,
      allowPositionals: true,
    });
    const from = protocolFlag(values.from, '--from');
    const to = protocolFlag(values.to, '--to');
    const kind = values.kind ?? 'request';
    if (kind !== 'request' && kind !== 'response' && kind !== 'stream') throw new UsageError(`--kind: expected request, response or stream, got "${kind}"`);
    if (positionals.length > 1) throw new UsageError('expected at most one input file');
    const file = positionals[0];
    const input = file ? readFileSync(file, 'utf8') : await io.readStdin();
    const output = await translate(input, {
      from,
      to,
      kind: kind as TranslateKind,
      model: values.model,
      warn: (warning) => io.err(JSON.stringify({ warning })),
    });
    io.out(output.endsWith('\n') ? output.slice(0, -1) : output);
    return 0;
  },
  async usage(args, io) {
    const { values } = parseArgs({
      args,
      options: { since: { type: 'string' }, by: { type: 'string' }, db: { type: 'string' }, config: { type: 'string', short: 'c' }, json: { type: 'boolean' } },
      strict: true,
    });
    const by = values.by ?? 'model';
    if (!isUsageGrouping(by)) throw new UsageError(`--by: expected model, upstream, key or day, got "${by}"`);
    let location: LedgerLocation | undefined = values.db ? { path: values.db } : undefined;
    if (!location && values.config) {
      location = ledgerOf(values.config, io.env);
      if (!location) throw new UsageError('the config disables the ledger (ledger: false)');
    }
    location ??= { path: './gateway-usage.db' };
    let since = 0;
    try {
      since = values.since ? parseSince(values.since) : 0;
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    let lines: UsageLine[];
    try {
      if ('postgres' in location) {
        // Its driver is loaded only for a config that names the database.
        const { postgresUsageReport } = await import('../store/postgres/usage.js');
        lines = await postgresUsageReport(location.postgres, by, since);
      } else {
        lines = usageReport(location.path, by, since);
      }
    } catch (error) {
      const where = 'postgres' in location ? describeServer(location.postgres) : location.path;
      throw new UsageError(`cannot read ledger ${where}: ${(error as Error).message}`);
    }
    io.out(values.json ? JSON.stringify(lines) : formatUsage(lines, by));
    return 0;
  },
};
