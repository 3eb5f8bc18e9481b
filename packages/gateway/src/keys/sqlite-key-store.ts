import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { openDatabase, type SqliteDatabase, type SqliteStatement } from '../ledger/sqlite.js';
import { type KeyRow, type KeyStore, keyFromRow, keyRow, rowValues } from './key-store.js';
import type { VirtualKey } from './virtual-key.js';

const SCHEMA = `CREATE TABLE IF NOT EXISTS virtual_keys (
  name TEXT PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  settings TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  revoked_at INTEGER
)`;
const COLUMNS = 'name, hash, prefix, settings, created_at, updated_at, revoked_at';

type Statements = Record<'insert' | 'replace' | 'byName' | 'byHash' | 'all' | 'any', SqliteStatement>;

/**
 * The embedded key store: one SQLite file (default `./gateway-keys.db` beside the config), in
 * WAL mode so gateway workers read while the CLI or the admin API writes. The file is made by the
 * first key created: a gateway that never has one leaves nothing on disk. Every statement is
 * synchronous and short (an indexed row): no request waits on another process but for a write
 * lock, up to the driver's busy timeout.
 */
export class SqliteKeyStore implements KeyStore {
  private db: SqliteDatabase | undefined;
  private statements: Statements | undefined;

  constructor(private readonly path: string) {}

  /** The statements, the file opened first; undefined when reading a file not yet made. */
  private open(create: boolean): Statements | undefined {
    if (this.statements) return this.statements;
    const memory = this.path === ':memory:';
    if (!create && !memory && !existsSync(this.path)) return undefined;
    if (!memory) mkdirSync(dirname(this.path), { recursive: true });
    const db = openDatabase(this.path);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(SCHEMA);
    this.db = db;
    this.statements = {
      insert: db.prepare(`INSERT INTO virtual_keys (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
      replace: db.prepare(
        'UPDATE virtual_keys SET hash = ?, prefix = ?, settings = ?, created_at = ?, updated_at = ?, revoked_at = ? WHERE name = ? AND (? = 0 OR revoked_at IS NULL)',
      ),
      byName: db.prepare(`SELECT ${COLUMNS} FROM virtual_keys WHERE name = ?`),
      byHash: db.prepare(`SELECT ${COLUMNS} FROM virtual_keys WHERE hash = ?`),
      all: db.prepare(`SELECT ${COLUMNS} FROM virtual_keys ORDER BY name`),
      any: db.prepare('SELECT 1 AS one FROM virtual_keys LIMIT 1'),
    };
    return this.statements;
  }

  async insert(key: VirtualKey): Promise<boolean> {
    const result = this.open(true)!.insert.run(...rowValues(keyRow(key))) as { changes: number | bigint };
    return Number(result.changes) === 1;
  }

  async replace(key: VirtualKey, options: { unrevoked?: boolean } = {}): Promise<boolean> {
    const [name, ...rest] = rowValues(keyRow(key));
    const statements = this.open(false);
    if (!statements) return false;
    const result = statements.replace.run(...rest, name, options.unrevoked ? 1 : 0) as { changes: number | bigint };
    return Number(result.changes) === 1;
  }

  async get(name: string): Promise<VirtualKey | undefined> {
    return this.one('byName', name);
  }

  async findByHash(hash: string): Promise<VirtualKey | undefined> {
    return this.one('byHash', hash);
  }

  async list(): Promise<VirtualKey[]> {
    return ((this.open(false)?.all.all() ?? []) as KeyRow[]).map(keyFromRow);
  }

  async any(): Promise<boolean> {
    return (this.open(false)?.any.all().length ?? 0) > 0;
  }

  async close(): Promise<void> {
    this.db?.close();
    this.db = undefined;
    this.statements = undefined;
  }

  private one(statement: 'byName' | 'byHash', value: string): VirtualKey | undefined {
    const row = this.open(false)?.[statement].all(value)[0] as KeyRow | undefined;
    return row && keyFromRow(row);
  }
}
