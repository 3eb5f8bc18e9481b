import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../src/cli/run.js';
import { ConfigError } from '../src/config/expand-env.js';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { isLoopbackHost } from '../src/server/open-relay.js';
import { startGateway } from '../src/server/start.js';

const REFUSAL =
  'listen.host: 0.0.0.0 is reachable from other machines and no client keys are set, so anyone could spend the upstream keys; add keys, or set allowOpen: true to serve it open';
const BASE = 'upstreams: { a: { protocol: claude, baseUrl: "http://127.0.0.1:1" } }\nroutes: [{ match: "*", upstream: a }]\nledger: false\n';
const quiet = () => createLogger('silent');

describe('open relay refusal', () => {
  it('knows the loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1'])
      expect([host, isLoopbackHost(host)]).toEqual([host, true]);
    for (const host of ['0.0.0.0', '::', '', '192.168.1.2', '10.0.0.1', 'gateway.internal', '127.example.com', '::ffff:10.0.0.1'])
      expect([host, isLoopbackHost(host)]).toEqual([host, false]);
  });

  it('refuses to serve with no keys on a non-loopback address, from the config or the --host option', async () => {
    await expect(startGateway(parseConfig(`${BASE}listen: { host: 0.0.0.0, port: 0 }`, {}), { logger: quiet() })).rejects.toEqual(new ConfigError(REFUSAL));
    await expect(startGateway(parseConfig(BASE, {}), { host: '0.0.0.0', port: 0, logger: quiet() })).rejects.toEqual(new ConfigError(REFUSAL));
  });

  it('serves there with client keys, or with allowOpen: true', async () => {
    for (const extra of ['keys: [{ name: ci, key: k }]', 'allowOpen: true']) {
      const gateway = await startGateway(parseConfig(`${BASE}${extra}`, {}), { host: '0.0.0.0', port: 0, logger: quiet() });
      const health = await fetch(`http://127.0.0.1:${gateway.port}/health`);
      expect([extra, health.status]).toEqual([extra, 200]);
      await gateway.close();
    }
  });

  it('exits 2 from the CLI with the reason', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'relay-')), 'c.yaml');
    writeFileSync(file, BASE);
    const stderr: string[] = [];
    const io: CliIo = { out: () => undefined, err: (text) => stderr.push(text), readStdin: async () => '', env: {} };
    expect(await runCli(['serve', '--config', file, '--host', '0.0.0.0', '--port', '0'], io)).toBe(2);
    expect(stderr).toEqual([`llm-gateway serve: ${REFUSAL}`]);
  });
});
