import type { RequestCost } from '../pricing/index.js';
import type { RequestRecord } from '../router-contract.js';
import { NoSqliteError, type SqliteDatabase, type SqliteDriver, type SqliteValue, openDatabase } from './sqlite.js';

/** One ledger row (a {@link RequestRecord} plus when and who). */
export interface LedgerRow {
  time: number;
  keyId?: string;
  record: RequestRecord;
  /** What the request cost (the price book's answer); absent when it had no usage. */
  cost?: RequestCost;
}

/** Options of {@link openLedger}. */
export interface LedgerOptions {
  /** Milliseconds between batched writes (default 250). */
  flushMs?: number;
  /**
   * Rows that trigger a write without waiting for the timer (default 128), right after the
   * current I/O callbacks. Under load this keeps rows from living long enough to be promoted to
   * V8's old space, which is what grows a busy gateway's memory.
   */
  batchRows?: number;
  /** Rows kept in memory at most while the database is slow (default 10,000; older rows are dropped). */
  maxQueued?: number;
  /** Called once, the first time a write fails; the ledger then drops rows and carries on. */
  onError?(error: unknown): void;
  /** The SQLite driver; default: node:sqlite where the runtime has it, else better-sqlite3. */
  driver?: SqliteDriver;
}

/** The usage ledger: rows queued off the request path, written in batches. */
export interface Ledger {
  /** Queues a row; never throws, never blocks. */
  record(row: LedgerRow): void;
  /** Writes what is queued now (a shared database's ledger: resolves once written or failed). */
  flush(): void | Promise<void>;
  /** Writes what is queued, then lets go of the database. */
  close(): void | Promise<void>;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS requests (
  id INTEGER PRIMARY KEY,
  time INTEGER NOT NULL,
  request_id TEXT NOT NULL,
  key_id TEXT,
  client_protocol TEXT NOT NULL,
  upstream TEXT,
  upstream_protocol TEXT,
  client_model TEXT,
  upstream_model TEXT,
  status INTEGER NOT NULL,
  stream INTEGER NOT NULL,
  input_tokens INTEGER,
  cached_tokens INTEGER,
  cache_write_tokens INTEGER,
  reasoning_tokens INTEGER,
  output_tokens INTEGER,
  first_byte_ms REAL,
  total_ms REAL NOT NULL,
  error_kind TEXT,
  usage_estimated INTEGER,
  cost_usd REAL,
  unpriced INTEGER
);
CREATE INDEX IF NOT EXISTS requests_time ON requests(time);`;

/** The ledger's columns, in the order {@link pushValues} writes a row's values (SQLite's and PostgreSQL's alike). */
export const COLUMNS = [
  'time',
  'request_id',
  'key_id',
  'client_protocol',
  'upstream',
  'upstream_protocol',
  'client_model',
  'upstream_model',
  'status',
  'stream',
  'input_tokens',
  'cached_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'output_tokens',
  'first_byte_ms',
  'total_ms',
  'error_kind',
  'usage_estimated',
  'cost_usd',
  'unpriced',
];

/** The writer's page cache in KiB: room for the b-trees' right edges and a batch's pages. */
export const WRITER_CACHE_KIB = 1024;

/** Rows per multi-row INSERT: one statement step per 64 rows costs about a third less than a step per row. */
const ROWS_PER_STATEMENT = 64;

/** An INSERT of `rows` rows, each a group of placeholders. */
function insertOf(rows: number): string {
  const group = `(${COLUMNS.map(() => '?').join(', ')})`;
  return `INSERT INTO requests (${COLUMNS.join(', ')}) VALUES ${Array.from({ length: rows }, () => group).join(', ')}`;
}

/** The writer connection's settings. */
export function configureWriter(database: SqliteDatabase): void {
  database.exec('PRAGMA journal_mode = WAL');
  // With WAL, NORMAL skips an fsync per batch; a crash of the process loses nothing, a power
  // cut at most the last batches: the trade every usage log makes against blocking requests.
  database.exec('PRAGMA synchronous = NORMAL');
  // better-sqlite3 builds SQLite with a 16 MB page cache (node:sqlite keeps SQLite's 2 MB). Rows
  // only ever append (rowid and time both grow), so a write touches the last page of each
  // b-tree: a larger cache only fills with pages no write comes back to, growing the process.
  database.exec(`PRAGMA cache_size = -${WRITER_CACHE_KIB}`);
}

/** Opens (creating if needed) the SQLite ledger at `path` (`:memory:` works for tests). */
export function openLedger(path: string, options: LedgerOptions = {}): Ledger {
  const flushMs = options.flushMs ?? 250;
  const maxQueued = options.maxQueued ?? 10_000;
  const batchRows = options.batchRows ?? 128;
  let failed = false;
  const fail = (error: unknown) => {
    if (!failed) options.onError?.(error);
    failed = true;
  };
  const width = COLUMNS.length;
  let db: SqliteDatabase | undefined;
  let insertMany: ((values: Value[]) => void) | undefined;
  try {
    db = openDatabase(path, { driver: options.driver });
    const database = db;
    configureWriter(database);
    database.exec(SCHEMA);
    addMissingColumns(database);
    const insertOne = database.prepare(insertOf(1));
    const insertBlock = database.prepare(insertOf(ROWS_PER_STATEMENT));
    const block = ROWS_PER_STATEMENT * width;
    // One transaction per batch (one WAL commit), rolled back whole if a row fails.
    insertMany = (values: Value[]) => {
      database.exec('BEGIN');
      try {
        let at = 0;
        for (; at + block <= values.length; at += block) insertBlock.run(...(values.length === block ? values : values.slice(at, at + block)));
        for (; at < values.length; at += width) insertOne.run(...values.slice(at, at + width));
        database.exec('COMMIT');
      } catch (error) {
        database.exec('ROLLBACK');
        throw error;
      }
    };
  } catch (error) {
    // No SQLite at all is the operator's to fix before starting, not a failure to log and skip.
    if (error instanceof NoSqliteError) throw error;
    fail(error);
  }
  // Queued rows, flat: each row is `width` values in column order.
  let queue: Value[] = [];
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
    timer = undefined;
    immediate = undefined;
    const values = queue;
    queue = [];
    if (failed || !insertMany || values.length === 0) return;
    try {
      insertMany(values);
    } catch (error) {
      fail(error);
    }
  };
  return {
    record(row) {
      if (failed) return;
      // Queued as the row's values: the record and its objects are free as soon as it ends.
      pushValues(queue, row);
      if (queue.length > maxQueued * width) queue.splice(0, width);
      if (queue.length >= batchRows * width) {
        immediate ??= setImmediate(flush);
      } else if (!timer) {
        timer = setTimeout(flush, flushMs);
        timer.unref();
      }
    },
    flush,
    close() {
      flush();
      try {
        db?.close();
      } catch {
        // closing a broken database has nothing left to save
      }
    },
  };
}

/** One column's value. */
export type Value = SqliteValue;

/** Appends a row's values in {@link COLUMNS} order. */
export function pushValues(queue: Value[], row: LedgerRow): void {
  const r = row.record;
  const u = r.usage;
  queue.push(
    row.time,
    r.requestId,
    row.keyId ?? null,
    r.clientProtocol,
    r.upstream ?? null,
    r.upstreamProtocol ?? null,
    r.clientModel ?? null,
    r.upstreamModel ?? null,
    r.status,
    r.stream ? 1 : 0,
    u?.inputTokens ?? null,
    u?.cacheReadTokens ?? null,
    u?.cacheWriteTokens ?? null,
    u?.reasoningTokens ?? null,
    u?.outputTokens ?? null,
    r.firstByteMs ?? null,
    r.totalMs,
    r.errorKind ?? null,
    r.usageEstimated ? 1 : null,
    row.cost && 'usd' in row.cost ? row.cost.usd : null,
    row.cost && 'unpriced' in row.cost ? 1 : null,
  );
}

/**
 * Columns added after the first release, in order: a ledger file made before one existed gets it
 * on open (null in its old rows).
 * - `usage_estimated`: 1 marks token counts the router estimated for a stream whose upstream reported none;
 * - `cost_usd`: the request's cost (null: unpriced, no usage, or a row older than prices);
 * - `unpriced`: 1 marks a request with usage whose model has no price (never counted as $0).
 */
const ADDED_COLUMNS: readonly [name: string, type: string][] = [
  ['usage_estimated', 'INTEGER'],
  ['cost_usd', 'REAL'],
  ['unpriced', 'INTEGER'],
];

function addMissingColumns(db: SqliteDatabase): void {
  const present = new Set((db.prepare('PRAGMA table_info(requests)').all() as { name: string }[]).map((column) => column.name));
  for (const [name, type] of ADDED_COLUMNS) if (!present.has(name)) db.exec(`ALTER TABLE requests ADD COLUMN ${name} ${type}`);
}
