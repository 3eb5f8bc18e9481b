import { openDatabase } from '../../src/ledger/sqlite.js';

/** Makes a ledger file at `path` as the first release wrote it, with one row ('before'): for the tests of columns added since. */
export function writeFirstSchemaLedger(path: string): void {
  const old = openDatabase(path);
  old.exec(`CREATE TABLE requests (id INTEGER PRIMARY KEY, time INTEGER NOT NULL, request_id TEXT NOT NULL, key_id TEXT, client_protocol TEXT NOT NULL,
    upstream TEXT, upstream_protocol TEXT, client_model TEXT, upstream_model TEXT, status INTEGER NOT NULL, stream INTEGER NOT NULL,
    input_tokens INTEGER, cached_tokens INTEGER, cache_write_tokens INTEGER, reasoning_tokens INTEGER, output_tokens INTEGER,
    first_byte_ms REAL, total_ms REAL NOT NULL, error_kind TEXT)`);
  old.prepare("INSERT INTO requests (time, request_id, client_protocol, status, stream, total_ms) VALUES (0, 'before', 'claude', 200, 0, 1)").run();
  old.close();
}
