import { type SqliteDatabase, type SqliteStatement, openDatabase } from '../ledger/sqlite.js';
import { type CounterTable, admitIn, readIn, settleIn } from './counter-table.js';
import type { AdmitPlan, AdmitVerdict, LimitStore, ReadPlan, SettlePlan } from './limit-store.js';
import { MINUTE_MS } from './periods.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS limit_counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL, expires_at INTEGER) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS limit_holds (holds TEXT NOT NULL, id TEXT NOT NULL, nano INTEGER NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (holds, id)) WITHOUT ROWID;
`;

/**
 * Counters in an SQLite file, shared by every process that opens it (`serve --workers`) and kept
 * across restarts. Admissions and settles run in `BEGIN IMMEDIATE` transactions (those of one
 * event-loop turn together): the write lock is taken before the counters are read, so concurrent
 * processes check and count one at a time; a process waits for another's lock up to the ledger's
 * busy timeout (5 s), then the store counts as down.
 */
export class SqliteLimitStore implements LimitStore, CounterTable {
  readonly kind = 'sqlite';
  private readonly database: SqliteDatabase;
  private readonly statements: Record<'get' | 'add' | 'held' | 'hold' | 'release' | 'sweepCounters' | 'sweepHolds', SqliteStatement>;
  private sweptAt = 0;
  private queued: { step: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void }[] = [];

  constructor(path: string) {
    this.database = openDatabase(path);
    try {
      // WAL lets readers run beside the writer; NORMAL syncs at checkpoints, not at every admission.
      this.database.exec('PRAGMA journal_mode = WAL');
      this.database.exec('PRAGMA synchronous = NORMAL');
      this.database.exec(SCHEMA);
      const prepare = (sql: string) => this.database.prepare(sql);
      this.statements = {
        get: prepare('SELECT value FROM limit_counters WHERE name = ? AND (expires_at IS NULL OR expires_at > ?)'),
        add: prepare(
          `INSERT INTO limit_counters (name, value, expires_at) VALUES (?, ?, ?)
           ON CONFLICT (name) DO UPDATE SET
             value = CASE WHEN expires_at IS NOT NULL AND expires_at <= ? THEN excluded.value ELSE value + excluded.value END,
             expires_at = excluded.expires_at`,
        ),
        held: prepare('SELECT COALESCE(SUM(nano), 0) AS held FROM limit_holds WHERE holds = ? AND expires_at > ?'),
        hold: prepare('INSERT OR REPLACE INTO limit_holds (holds, id, nano, expires_at) VALUES (?, ?, ?, ?)'),
        release: prepare('DELETE FROM limit_holds WHERE holds = ? AND id = ?'),
        sweepCounters: prepare('DELETE FROM limit_counters WHERE expires_at <= ?'),
        sweepHolds: prepare('DELETE FROM limit_holds WHERE expires_at <= ?'),
      };
    } catch (error) {
      this.database.close();
      throw error;
    }
  }

  admit(plan: AdmitPlan): Promise<AdmitVerdict> {
    return this.inBatch(() => {
      this.sweep(plan.now);
      return admitIn(this, plan);
    });
  }

  settle(plan: SettlePlan): Promise<void> {
    return this.inBatch(() => settleIn(this, plan));
  }

  async read(plan: ReadPlan): Promise<{ spentNano: number; requests: number; tokens: number }> {
    return readIn(this, plan);
  }

  async close(): Promise<void> {
    // Steps already queued run first (a settle in flight at shutdown is still counted).
    if (this.queued.length > 0) this.runBatch();
    this.database.close();
  }

  get(name: string, now: number): number {
    const row = this.statements.get.all(name, now)[0] as { value: number } | undefined;
    return row ? Number(row.value) : 0;
  }

  add(name: string, delta: number, expiresAt: number | undefined, now: number): void {
    this.statements.add.run(name, delta, expiresAt ?? null, now);
  }

  held(holds: string, now: number): number {
    return Number((this.statements.held.all(holds, now)[0] as { held: number }).held);
  }

  hold(holds: string, id: string, nano: number, expiresAt: number): void {
    this.statements.hold.run(holds, id, nano, expiresAt);
  }

  release(holds: string, id: string): void {
    this.statements.release.run(holds, id);
  }

  /**
   * Runs `step` in the next write transaction: the steps queued in one turn of the event loop
   * (requests in flight together) share one transaction, in order, so a busy gateway pays one
   * commit for many requests, and each step still reads what the ones before it wrote.
   */
  private inBatch<T>(step: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queued.push({ step, resolve: resolve as (value: unknown) => void, reject });
      if (this.queued.length === 1) setImmediate(() => this.runBatch());
    });
  }

  private runBatch(): void {
    const batch = this.queued;
    if (batch.length === 0) return;
    this.queued = [];
    let results: unknown[];
    try {
      results = this.transaction(() => batch.map((queued) => queued.step()));
    } catch (error) {
      for (const queued of batch) queued.reject(error);
      return;
    }
    batch.forEach((queued, index) => queued.resolve(results[index]));
  }

  private transaction<T>(step: () => T): T {
    this.database.exec('BEGIN IMMEDIATE');
    try {
      const result = step();
      this.database.exec('COMMIT');
      return result;
    } catch (error) {
      try {
        this.database.exec('ROLLBACK');
      } catch {
        // No transaction left to roll back (SQLite ended it with the error).
      }
      throw error;
    }
  }

  /** Deletes expired rows, at most once a minute per process, inside a transaction already open. */
  private sweep(now: number): void {
    if (now - this.sweptAt < MINUTE_MS) return;
    this.sweptAt = now;
    this.statements.sweepCounters.run(now);
    this.statements.sweepHolds.run(now);
  }
}
