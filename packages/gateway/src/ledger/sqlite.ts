import { createRequire } from 'node:module';

/** A value bound to or read from SQLite. */
export type SqliteValue = string | number | null;

/** The part of a prepared statement the ledger uses (node:sqlite's and better-sqlite3's alike). */
export interface SqliteStatement {
  run(...values: SqliteValue[]): unknown;
  all(...values: SqliteValue[]): unknown[];
}

/** The part of a database the ledger uses (node:sqlite's and better-sqlite3's alike). */
export interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/** The SQLite drivers the gateway can use, the preferred first. */
export type SqliteDriver = 'node:sqlite' | 'better-sqlite3';

type Open = (path: string, readonly: boolean) => SqliteDatabase;

const require = createRequire(import.meta.url);

/**
 * Node's built-in SQLite (unflagged from Node 22.13): no native addon to install. Undefined on
 * older runtimes (`getBuiltinModule` is missing before 20.16, `node:sqlite` before 22.5 or behind
 * a flag until 22.13).
 */
function nodeSqlite(): Open | undefined {
  type DatabaseSync = new (path: string, options: { readOnly: boolean }) => SqliteDatabase;
  const getBuiltinModule = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  try {
    const module = getBuiltinModule?.call(process, 'node:sqlite') as { DatabaseSync?: DatabaseSync } | undefined;
    const Database = module?.DatabaseSync;
    return Database && ((path, readonly) => new Database(path, { readOnly: readonly }));
  } catch {
    return undefined;
  }
}

/**
 * better-sqlite3, an optional dependency for runtimes without `node:sqlite` (Node 20): loaded
 * from its package at run time, never bundled, so an install without it (or with an addon built
 * for another Node) still starts, with `ledger: false` or on a newer Node.
 *
 * Never loaded where `node:sqlite` exists: better-sqlite3 12 aborts the whole process on Node 24
 * (`RemoveEnvironmentCleanupHook: (env) != nullptr`) when the garbage collector frees one of its
 * objects while a worker thread's environment is gone, and 13, which fixes that, needs Node 22,
 * where `node:sqlite` is there anyway.
 */
function betterSqlite3(): Open | undefined {
  type Database = new (path: string, options: { readonly: boolean; fileMustExist: boolean }) => SqliteDatabase;
  if (driverOpen('node:sqlite')) return undefined;
  try {
    const Database = require('better-sqlite3') as Database;
    // Its addon loads at the first open: one built for another Node version fails only then.
    new Database(':memory:', { readonly: false, fileMustExist: false }).close();
    return (path, readonly) => new Database(path, { readonly, fileMustExist: readonly });
  } catch {
    return undefined;
  }
}

const LOADERS: Record<SqliteDriver, () => Open | undefined> = { 'node:sqlite': nodeSqlite, 'better-sqlite3': betterSqlite3 };
const loaded = new Map<SqliteDriver, Open | undefined>();

function driverOpen(driver: SqliteDriver): Open | undefined {
  if (!loaded.has(driver)) loaded.set(driver, LOADERS[driver]());
  return loaded.get(driver);
}

/** The drivers this runtime has, the preferred first. */
export function availableSqliteDrivers(): SqliteDriver[] {
  return (Object.keys(LOADERS) as SqliteDriver[]).filter((driver) => driverOpen(driver) !== undefined);
}

/** Thrown when a ledger is configured and this runtime has neither SQLite driver. */
export class NoSqliteError extends Error {
  override name = 'NoSqliteError';
  constructor() {
    super(
      'the usage ledger needs SQLite: run on Node 22.13 or newer (node:sqlite), or install the better-sqlite3 package next to the gateway; or set ledger: false',
    );
  }
}

/**
 * Opens an SQLite database with the first available driver (or `driver`). `readonly` opens an
 * existing file only. Throws {@link NoSqliteError} when no driver is available.
 */
export function openDatabase(path: string, options: { readonly?: boolean; driver?: SqliteDriver } = {}): SqliteDatabase {
  const driver = options.driver ?? availableSqliteDrivers()[0];
  const open = driver && driverOpen(driver);
  if (!open) throw new NoSqliteError();
  const database = open(path, options.readonly ?? false);
  // Several processes (`serve --workers`, `usage` beside a running gateway) share one file: wait
  // for another's write lock instead of failing at once. better-sqlite3 waits 5 s by default;
  // node:sqlite does not wait at all, and a busy error there dropped whole batches of rows.
  database.exec(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  return database;
}

/** How long a connection waits for another process's lock on the same file (both drivers). */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;
