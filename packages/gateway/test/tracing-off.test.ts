import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// Tracing off costs nothing: with `tracing` unset the gateway loads no OpenTelemetry module and
// makes no span. Checked in a child process running the built library (dist/index.js) under a
// module resolve hook that records every specifier resolved (helpers/tracing-probe.mjs).
//
// Why the hook sees the difference: the library build keeps every dependency an import, and
// tracing.ts reaches OpenTelemetry through dynamic `import()`s only (the SDK packages, and the
// two chunks of the OTLP encoder, which import the exporter packages), so each one the gateway
// loads passes through the hook. The bin (dist/cli.js) is no probe: there OpenTelemetry is
// inlined, its modules evaluated lazily by the bundle's init functions, which no resolve hook
// ever sees. Node 20's hooks do not see `require()` either: the OpenTelemetry packages' own
// CommonJS requires pass unseen, but the import that loads the first of them does not.

const execFileP = promisify(execFile);
const probe = join(dirname(fileURLToPath(import.meta.url)), 'helpers', 'tracing-probe.mjs');

interface Resolved {
  specifier: string;
  parent: string | null;
  url: string;
}

/** Runs the probe with tracing `mode`: what it printed, and every module it resolved. */
async function run(mode: 'off' | 'on'): Promise<{ result: Record<string, unknown>; resolved: Resolved[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'tracing-probe-'));
  try {
    const file = join(dir, 'resolved.jsonl');
    const { stdout } = await execFileP(process.execPath, [probe, mode, file], { timeout: 60_000 });
    const resolved = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Resolved);
    return { result: JSON.parse(stdout) as Record<string, unknown>, resolved };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the gateway's own files imported of OpenTelemetry (a package, or a chunk of the OTLP encoder). */
function openTelemetryImports(resolved: readonly Resolved[]): string[] {
  return resolved
    .filter(({ parent }) => parent?.includes('/packages/gateway/dist/') === true)
    .map(({ specifier }) => specifier.replace(/-[A-Z0-9]{8}\.js$/, '.js'))
    .filter((specifier) => specifier.startsWith('@opentelemetry/') || /^\.\/(encoding-span-processor|otlp-batch-exporter)\.js$/.test(specifier));
}

describe('tracing off', () => {
  it('with `tracing` unset: no OpenTelemetry module resolved, no traceparent sent upstream, nothing exported', async () => {
    const { result, resolved } = await run('off');
    expect(result).toEqual({ status: 200, upstreamTraceparents: [false], exports: 0 });
    // The hook was live: it saw the gateway itself load.
    expect(resolved.some(({ specifier }) => specifier === '../../dist/index.js')).toBe(true);
    expect(openTelemetryImports(resolved)).toEqual([]);
    expect(resolved.filter(({ url }) => url.includes('/@opentelemetry/'))).toEqual([]);
  }, 90_000);

  it('with `tracing` set, the same probe sees the SDK load and the span go out (so the check above can fail)', async () => {
    const { result, resolved } = await run('on');
    expect(result).toEqual({ status: 200, upstreamTraceparents: [true], exports: 1 });
    expect(openTelemetryImports(resolved).sort()).toEqual([
      './encoding-span-processor.js',
      './otlp-batch-exporter.js',
      '@opentelemetry/api',
      '@opentelemetry/core',
      '@opentelemetry/otlp-exporter-base',
      '@opentelemetry/otlp-exporter-base/node-http',
      '@opentelemetry/otlp-transformer',
      '@opentelemetry/resources',
      '@opentelemetry/sdk-trace-base',
    ]);
  }, 90_000);
});
