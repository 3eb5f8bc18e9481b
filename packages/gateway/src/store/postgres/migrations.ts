import type { Pool } from 'pg';

/**
 * The gateway's PostgreSQL schema, as numbered steps. Each runs once, in order, in one
 * transaction with its row in `llm_gateway_schema_version`; never edit a released step, add one.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: the usage ledger (the SQLite ledger's columns; row_id makes a retried batch count once)
  // and the stored Responses answers.
  `CREATE TABLE llm_gateway_requests (
    id BIGSERIAL PRIMARY KEY,
    row_id UUID NOT NULL UNIQUE,
    time BIGINT NOT NULL,
    request_id TEXT NOT NULL,
    key_id TEXT,
    client_protocol TEXT NOT NULL,
    upstream TEXT,
    upstream_protocol TEXT,
    client_model TEXT,
    upstream_model TEXT,
    status INTEGER NOT NULL,
    stream INTEGER NOT NULL,
    input_tokens BIGINT,
    cached_tokens BIGINT,
    cache_write_tokens BIGINT,
    reasoning_tokens BIGINT,
    output_tokens BIGINT,
    first_byte_ms DOUBLE PRECISION,
    total_ms DOUBLE PRECISION NOT NULL,
    error_kind TEXT,
    usage_estimated INTEGER
  );
  CREATE INDEX llm_gateway_requests_time ON llm_gateway_requests (time);
  CREATE TABLE llm_gateway_responses (
    id TEXT PRIMARY KEY,
    owner TEXT,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX llm_gateway_responses_created ON llm_gateway_responses (created_at);`,
  // 2: each request's cost (null: unpriced, no usage, or a row older than prices) and the flag of
  // a request whose model has no price (1), as in the SQLite ledger.
  `ALTER TABLE llm_gateway_requests ADD COLUMN cost_usd DOUBLE PRECISION, ADD COLUMN unpriced INTEGER;`,
  // 3: virtual keys (src/keys): the secret's SHA-256 only, settings as JSON text; revoked rows kept.
  `CREATE TABLE llm_gateway_keys (
    name TEXT PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    settings TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    revoked_at BIGINT
  );`,
];

/** Any fixed number: instances starting together take this advisory lock, so one migrates at a time. */
const MIGRATION_LOCK = 0x6c6c6d67;

/**
 * Brings the schema to the latest version: idempotent (steps already applied are skipped), safe
 * when several gateways start at once (an advisory lock serialises them). Returns the steps applied.
 */
export async function migrate(pool: Pool, migrations: readonly string[] = MIGRATIONS): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS llm_gateway_schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
    const { rows } = await client.query<{ version: number }>('SELECT COALESCE(MAX(version), 0)::int AS version FROM llm_gateway_schema_version');
    const current = rows[0]?.version ?? 0;
    if (current > migrations.length)
      throw new Error(`the database schema is version ${current}, newer than this gateway knows (${migrations.length}): upgrade the gateway`);
    const applied: number[] = [];
    for (let version = current + 1; version <= migrations.length; version += 1) {
      await client.query(migrations[version - 1] as string);
      await client.query('INSERT INTO llm_gateway_schema_version (version) VALUES ($1)', [version]);
      applied.push(version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
