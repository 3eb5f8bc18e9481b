import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Pool } from 'pg';
import { COLUMNS, type Ledger, type LedgerRow, pushValues, type Value } from '../../ledger/ledger.js';

/** Options of {@link PostgresLedger}. */
export interface PostgresLedgerOptions {
  /** Milliseconds between batched writes (default 250). */
  flushMs?: number;
  /** Rows that trigger a write without waiting for the timer, and most rows per INSERT (default 500). */
  batchRows?: number;
  /**
   * Rows kept while the database is down (default {@link DEFAULT_MAX_SPOOLED_ROWS}): past it the
   * oldest are dropped, and counted in `onDropped`.
   */
  maxQueued?: number;
  /** First wait before writing again after a failed write, doubled per failure (default 500 ms). */
  retryMs?: number;
  /** Longest wait between two tries while the database is down (default 10,000 ms). */
  maxRetryMs?: number;
  /** How long `close()` keeps trying to write what is queued before spooling it to the file (default 5,000 ms). */
  closeTimeoutMs?: number;
  /**
   * A file for rows still unwritten at `close()` (JSON lines), read back and written at the next
   * start. Default none: unwritten rows are lost at shutdown.
   */
  spoolPath?: string;
  /** The database stopped taking rows (once per outage). */
  onDown?(error: unknown): void;
  /** The database takes rows again, after an outage; `rows` were written late. */
  onUp?(rows: number): void;
  /** Rows dropped: more than `maxQueued` waited, or the spool file could not be written. */
  onDropped?(rows: number): void;
}

/** Default {@link PostgresLedgerOptions.maxQueued}: about 100k rows, some 60 MB while the database is down. */
export const DEFAULT_MAX_SPOOLED_ROWS = 100_000;

const WIDTH = COLUMNS.length + 1;
/** A spooled row of the release before `cost_usd` and `unpriced` (read back with both null). */
const WIDTH_BEFORE_COST = WIDTH - 2;

/** `INSERT ... VALUES ($1..), ...` for `rows` rows; a row seen before (same row_id) is skipped. */
function insertOf(rows: number): string {
  const columns = ['row_id', ...COLUMNS];
  const groups = Array.from({ length: rows }, (_, row) => `(${columns.map((_, column) => `$${row * WIDTH + column + 1}`).join(', ')})`);
  return `INSERT INTO llm_gateway_requests (${columns.join(', ')}) VALUES ${groups.join(', ')} ON CONFLICT (row_id) DO NOTHING`;
}

/**
 * The usage ledger in PostgreSQL. Rows are queued off the request path and written in batches
 * (one multi-row INSERT each). While the database is down the queue holds them (bounded by
 * `maxQueued`), retried with backoff; a row carries its own id, so a batch whose commit was
 * acknowledged too late to know is written again without counting twice.
 */
export class PostgresLedger implements Ledger {
  /** Queued rows, each its values: the row id, then {@link COLUMNS}. */
  private queue: Value[][] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private failures = 0;
  private down = false;
  private closed = false;
  private readonly flushMs: number;
  private readonly batchRows: number;
  private readonly maxQueued: number;

  constructor(
    private readonly pool: Pool,
    private readonly options: PostgresLedgerOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 250;
    this.batchRows = options.batchRows ?? 500;
    this.maxQueued = options.maxQueued ?? DEFAULT_MAX_SPOOLED_ROWS;
    this.readSpool();
  }

  /** False while writes fail (the readiness check `postgres`). */
  get healthy(): boolean {
    return !this.down;
  }

  /** Rows waiting to be written. */
  get queued(): number {
    return this.queue.length;
  }

  record(row: LedgerRow): void {
    const values: Value[] = [crypto.randomUUID()];
    pushValues(values, row);
    this.enqueue([values]);
  }

  /** Writes what is queued now; resolves once written, or once this try failed. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.writing ??= this.writeAll().finally(() => {
      this.writing = undefined;
    });
    return this.writing;
  }

  /** Writes what is queued (trying for `closeTimeoutMs`), spools what is left, ends the pool. */
  async close(): Promise<void> {
    this.closed = true;
    const deadline = Date.now() + (this.options.closeTimeoutMs ?? 5_000);
    while (this.queue.length > 0 && Date.now() < deadline) {
      await this.flush();
      if (this.queue.length > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(200, Math.max(0, deadline - Date.now()))));
    }
    if (this.timer) clearTimeout(this.timer);
    this.writeSpool();
    await this.pool.end().catch(() => undefined);
  }

  private enqueue(rows: Value[][]): void {
    this.queue.push(...rows);
    const over = this.queue.length - this.maxQueued;
    if (over > 0) {
      this.queue.splice(0, over);
      this.options.onDropped?.(over);
    }
    if (this.closed || this.writing) return;
    if (this.queue.length >= this.batchRows && !this.down) void this.flush();
    else this.schedule(this.down ? this.retryDelay() : this.flushMs);
  }

  private schedule(ms: number): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => void this.flush(), ms);
    this.timer.unref();
  }

  private retryDelay(): number {
    const base = this.options.retryMs ?? 500;
    return Math.min(this.options.maxRetryMs ?? 10_000, base * 2 ** Math.min(this.failures - 1, 20));
  }

  /** Writes batches until the queue is empty or a write fails (then retries later). */
  private async writeAll(): Promise<void> {
    let written = 0;
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, this.batchRows);
      try {
        await this.pool.query(insertOf(batch.length), batch.flat());
      } catch (error) {
        this.failures += 1;
        if (!this.down) this.options.onDown?.(error);
        this.down = true;
        this.schedule(this.retryDelay());
        return;
      }
      // Rows queued meanwhile went to the end; the batch is still the queue's head.
      this.queue.splice(0, batch.length);
      written += batch.length;
      this.failures = 0;
      if (this.down) {
        this.down = false;
        this.options.onUp?.(written);
      }
    }
  }

  private readSpool(): void {
    const path = this.options.spoolPath;
    if (!path || !existsSync(path)) return;
    // Renamed first: a crash while reading must not read the same rows twice at the next start.
    const reading = `${path}.reading`;
    renameSync(path, reading);
    const rows = readFileSync(reading, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as Value[])
      .filter((row) => Array.isArray(row) && (row.length === WIDTH || row.length === WIDTH_BEFORE_COST))
      .map((row) => (row.length === WIDTH ? row : [...row, null, null]));
    rmSync(reading);
    if (rows.length > 0) this.enqueue(rows);
  }

  private writeSpool(): void {
    if (this.queue.length === 0) return;
    const rows = this.queue;
    this.queue = [];
    if (!this.options.spoolPath) {
      this.options.onDropped?.(rows.length);
      return;
    }
    try {
      writeFileSync(this.options.spoolPath, `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`, { flag: 'a' });
    } catch {
      this.options.onDropped?.(rows.length);
    }
  }
}
