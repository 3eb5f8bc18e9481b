// A gateway config for the virtual keys' tests: a file key `file-key` (`client-key`), the admin
// key, no ledger nor metrics, and its keys in a fresh SQLite file.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../src/config/load.js';
import type { GatewayConfig } from '../../src/config/schema.js';

export const ADMIN_KEY = 'admin-key-0123456789';

export function keysGatewayConfig(fields: Record<string, unknown>): GatewayConfig {
  return parseConfig(
    JSON.stringify({
      keys: [{ name: 'file-key', key: 'client-key' }],
      adminKey: ADMIN_KEY,
      ledger: false,
      metrics: false,
      virtualKeys: { path: join(mkdtempSync(join(tmpdir(), 'keys-')), 'keys.db') },
      ...fields,
    }),
  );
}

/** Creates a key through the admin API; its secret. */
export async function createKey(gatewayUrl: string, body: Record<string, unknown>): Promise<string> {
  const reply = await fetch(`${gatewayUrl}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (reply.status !== 201) throw new Error(`POST /admin/keys answered ${reply.status}: ${await reply.text()}`);
  return ((await reply.json()) as { secret: string }).secret;
}
