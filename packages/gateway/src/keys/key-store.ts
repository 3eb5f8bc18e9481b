import type { KeySettings, VirtualKey } from './virtual-key.js';

/**
 * Where virtual keys live, on the storage seam: a SQLite file by default (shared by
 * `serve --workers` processes and the CLI), PostgreSQL with `store.postgres`. Reads are by name
 * and by secret hash (both unique); writes replace a whole row, the merge done by the caller.
 */
export interface KeyStore {
  /** Adds a key; false when its name is taken (a revoked key's too). */
  insert(key: VirtualKey): Promise<boolean>;
  /**
   * Replaces the row of `key.name`; false when there is none, or with `unrevoked` when the row is
   * revoked (a revocation another process made since the caller read the row stays: it is final).
   */
  replace(key: VirtualKey, options?: { unrevoked?: boolean }): Promise<boolean>;
  get(name: string): Promise<VirtualKey | undefined>;
  findByHash(hash: string): Promise<VirtualKey | undefined>;
  /** Every key, revoked ones included, by name. */
  list(): Promise<VirtualKey[]>;
  /** Whether any key was ever created (then every request must present a key). */
  any(): Promise<boolean>;
  close(): Promise<void>;
}

/** A key's columns: the searchable ones apart, the settings as one JSON text (new settings need no migration). */
export interface KeyRow {
  name: string;
  hash: string;
  prefix: string;
  settings: string;
  created_at: number | string;
  updated_at: number | string;
  revoked_at: number | string | null;
}

export function keyRow(key: VirtualKey): KeyRow {
  const { name, hash, prefix, createdAt, updatedAt, revokedAt, ...settings } = key;
  return { name, hash, prefix, settings: JSON.stringify(settings), created_at: createdAt, updated_at: updatedAt, revoked_at: revokedAt ?? null };
}

/** A row back into a key (PostgreSQL returns BIGINT columns as strings). */
export function keyFromRow(row: KeyRow): VirtualKey {
  const settings = JSON.parse(row.settings) as KeySettings;
  const key: VirtualKey = {
    ...settings,
    name: row.name,
    hash: row.hash,
    prefix: row.prefix,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
  if (row.revoked_at !== null) key.revokedAt = Number(row.revoked_at);
  return key;
}

/** The columns in the order the SQL statements bind them. */
export function rowValues(row: KeyRow): [string, string, string, string, number, number, number | null] {
  return [
    row.name,
    row.hash,
    row.prefix,
    row.settings,
    Number(row.created_at),
    Number(row.updated_at),
    row.revoked_at === null ? null : Number(row.revoked_at),
  ];
}
