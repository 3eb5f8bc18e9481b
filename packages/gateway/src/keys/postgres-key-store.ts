import type { Pool } from 'pg';
import { connectPostgres, reasonOf, StoreStartError } from '../store/postgres/connect.js';
import { migrate } from '../store/postgres/migrations.js';
import { describeServer } from '../store/store-unavailable.js';
import { type KeyRow, type KeyStore, keyFromRow, keyRow, rowValues } from './key-store.js';
import type { VirtualKey } from './virtual-key.js';

const COLUMNS = 'name, hash, prefix, settings, created_at, updated_at, revoked_at';

/** The key store on PostgreSQL (`store.postgres`): table `llm_gateway_keys`, shared by every gateway and the CLI. */
export class PostgresKeyStore implements KeyStore {
  private constructor(private readonly pool: Pool) {}

  /** Connects (the `pg` driver loaded only now) and brings the schema up to date. */
  static async open(url: string): Promise<PostgresKeyStore> {
    const pool = await connectPostgres(url);
    try {
      await migrate(pool);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw new StoreStartError(`store.postgres: cannot migrate the schema on ${describeServer(url)}: ${reasonOf(error)}`);
    }
    return new PostgresKeyStore(pool);
  }

  async insert(key: VirtualKey): Promise<boolean> {
    const result = await this.pool.query(
      `INSERT INTO llm_gateway_keys (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
      rowValues(keyRow(key)),
    );
    return result.rowCount === 1;
  }

  async replace(key: VirtualKey, options: { unrevoked?: boolean } = {}): Promise<boolean> {
    const result = await this.pool.query(
      'UPDATE llm_gateway_keys SET hash = $2, prefix = $3, settings = $4, created_at = $5, updated_at = $6, revoked_at = $7 WHERE name = $1 AND (NOT $8::boolean OR revoked_at IS NULL)',
      [...rowValues(keyRow(key)), options.unrevoked === true],
    );
    return result.rowCount === 1;
  }

  async get(name: string): Promise<VirtualKey | undefined> {
    return this.one('name', name);
  }

  async findByHash(hash: string): Promise<VirtualKey | undefined> {
    return this.one('hash', hash);
  }

  async list(): Promise<VirtualKey[]> {
    const { rows } = await this.pool.query<KeyRow>(`SELECT ${COLUMNS} FROM llm_gateway_keys ORDER BY name`);
    return rows.map(keyFromRow);
  }

  async any(): Promise<boolean> {
    const { rows } = await this.pool.query('SELECT 1 FROM llm_gateway_keys LIMIT 1');
    return rows.length > 0;
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }

  private async one(column: 'name' | 'hash', value: string): Promise<VirtualKey | undefined> {
    const { rows } = await this.pool.query<KeyRow>(`SELECT ${COLUMNS} FROM llm_gateway_keys WHERE ${column} = $1`, [value]);
    return rows[0] && keyFromRow(rows[0]);
  }
}
