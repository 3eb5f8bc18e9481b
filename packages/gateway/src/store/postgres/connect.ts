import type { Pool } from 'pg';
import { describeServer } from '../store-unavailable.js';

/** Longest wait for a new database connection (default 3 s): a down database fails fast, not after the OS's timeout. */
export const POSTGRES_CONNECT_TIMEOUT_MS = 3_000;
/** Longest run of one query (default 10 s): a stuck database fails a batch, not the gateway. */
export const POSTGRES_QUERY_TIMEOUT_MS = 10_000;
/** Connections per gateway process (default 4): ledger batches and stored answers share them. */
export const POSTGRES_POOL_SIZE = 4;

/** Thrown at start when the configured database cannot be reached or migrated. */
export class StoreStartError extends Error {
  override name = 'StoreStartError';
}

/**
 * A connection pool to `url`, with the `pg` driver loaded now (only a config naming
 * `store.postgres` loads it). Checked with one query, so a wrong URL or a down database stops
 * the start with an error naming the server (never its password).
 */
export async function connectPostgres(url: string): Promise<Pool> {
  const pg = (await import('pg')).default;
  const pool = new pg.Pool({
    connectionString: url,
    max: POSTGRES_POOL_SIZE,
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
    query_timeout: POSTGRES_QUERY_TIMEOUT_MS,
    application_name: 'llm-gateway',
  });
  // An idle connection the server drops emits here; the next query reconnects.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new StoreStartError(`store.postgres: cannot reach ${describeServer(url)}: ${reasonOf(error)}`);
  }
  return pool;
}

/** A driver error in one line: its code (ECONNREFUSED, 28P01...) and message. */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const message = error.message || (error as { errors?: Error[] }).errors?.map((inner) => inner.message).join('; ') || error.name;
  return typeof code === 'string' && !message.includes(code) ? `${code} ${message}` : message;
}
