import pg from 'pg';
import { inject } from 'vitest';

/**
 * A fresh, empty database on the run's PostgreSQL, so test files running side by side never see
 * each other's rows. Returns its URL.
 */
export async function freshDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  await admin.connect();
  const name = `t_${crypto.randomUUID().replace(/-/g, '')}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(inject('databaseUrl'));
  url.pathname = `/${name}`;
  return url.href;
}

/** Runs one query on `url` and returns its rows. */
export async function query<Row>(url: string, sql: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as Row[];
  } finally {
    await client.end();
  }
}
