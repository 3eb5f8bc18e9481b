import type { Logger } from 'pino';
import { PostgresAnswerStore } from './answers.js';
import { connectPostgres, reasonOf, StoreStartError } from './connect.js';
import { PostgresLedger } from './ledger.js';
import { migrate } from './migrations.js';
import { describeServer } from '../store-unavailable.js';

/** The PostgreSQL half of the stores: one pool for the ledger and the stored answers. */
export interface PostgresStores {
  ledger: PostgresLedger | undefined;
  answers: PostgresAnswerStore;
  /** False while ledger writes fail. */
  readonly healthy: boolean;
  close(): Promise<void>;
}

/** Connects, migrates, and opens the ledger (unless `ledger: false`) and the answer store. */
export async function openPostgresStores(url: string, logger: Logger, options: { ledger: boolean; spoolPath?: string }): Promise<PostgresStores> {
  const pool = await connectPostgres(url);
  try {
    const applied = await migrate(pool);
    if (applied.length > 0) logger.info({ server: describeServer(url), versions: applied }, 'postgres schema migrated');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new StoreStartError(`store.postgres: cannot migrate the schema on ${describeServer(url)}: ${reasonOf(error)}`);
  }
  const ledger = options.ledger
    ? new PostgresLedger(pool, {
        spoolPath: options.spoolPath,
        onDown: (error) => logger.error({ err: reasonOf(error) }, 'postgres unreachable; ledger rows are kept and written when it returns'),
        onUp: (rows) => logger.info({ rows }, 'postgres reachable again; kept ledger rows written'),
        onDropped: (rows) => logger.error({ rows }, 'ledger rows dropped: more were waiting for postgres than the spool holds'),
      })
    : undefined;
  const answers = new PostgresAnswerStore(pool, { onError: (error) => logger.warn({ err: reasonOf(error) }, 'stored response not read or kept in postgres') });
  return {
    ledger,
    answers,
    get healthy() {
      return ledger?.healthy ?? true;
    },
    async close() {
      answers.close();
      if (ledger) await ledger.close();
      else await pool.end().catch(() => undefined);
    },
  };
}
