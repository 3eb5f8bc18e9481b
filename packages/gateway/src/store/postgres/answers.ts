import type { Pool } from 'pg';
import { responseIdOf } from '../../server/response-store.js';
import type { AnswerStore } from '../answer-store.js';
import { storeUnavailable } from '../store-unavailable.js';

/** Default {@link PostgresAnswerStoreOptions.maxAgeMs}: 30 days, as OpenAI keeps stored responses. */
export const DEFAULT_STORED_ANSWER_MAX_AGE_MS = 30 * 86_400_000;
/** Default {@link PostgresAnswerStoreOptions.maxChars}: 32 Mi characters, the in-memory store's whole bound. */
export const DEFAULT_STORED_ANSWER_MAX_CHARS = 32 * 1024 * 1024;

/** Options of {@link PostgresAnswerStore}. */
export interface PostgresAnswerStoreOptions {
  /** Answers older than this are deleted (at start and hourly) and never served. */
  maxAgeMs?: number;
  /** A larger answer is not kept. */
  maxChars?: number;
  /** A write failed (the answer is not kept; the request it came from was already answered). */
  onError?(error: unknown): void;
  now?: () => number;
}

/**
 * Stored Responses answers in PostgreSQL, so `GET /v1/responses/{id}` works on every gateway
 * sharing the database. Writes go off the request path; a read the database cannot answer is a
 * 503 in the client's protocol, never a hang (the pool's connect and query timeouts bound it).
 */
export class PostgresAnswerStore implements AnswerStore {
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  private readonly purgeTimer: NodeJS.Timeout;

  constructor(
    private readonly pool: Pool,
    private readonly options: PostgresAnswerStoreOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_STORED_ANSWER_MAX_AGE_MS;
    this.now = options.now ?? Date.now;
    void this.purge();
    this.purgeTimer = setInterval(() => void this.purge(), 3_600_000);
    this.purgeTimer.unref();
  }

  async get(id: string, owner?: string): Promise<string | undefined> {
    let rows: { body: string }[];
    try {
      ({ rows } = await this.pool.query<{ body: string }>(
        'SELECT body FROM llm_gateway_responses WHERE id = $1 AND owner IS NOT DISTINCT FROM $2 AND created_at >= $3',
        [id, owner ?? null, this.now() - this.maxAgeMs],
      ));
    } catch (error) {
      this.options.onError?.(error);
      throw storeUnavailable('the stored response');
    }
    return rows[0]?.body;
  }

  put(json: string, owner?: string): void {
    const id = responseIdOf(json);
    if (id === undefined || json.length > (this.options.maxChars ?? DEFAULT_STORED_ANSWER_MAX_CHARS)) return;
    // An upstream that reuses ids makes the later answer replace the earlier one, owner included.
    this.pool
      .query(
        `INSERT INTO llm_gateway_responses (id, owner, body, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET owner = EXCLUDED.owner, body = EXCLUDED.body, created_at = EXCLUDED.created_at`,
        [id, owner ?? null, json, this.now()],
      )
      .catch((error: unknown) => this.options.onError?.(error));
  }

  /** Stops the hourly purge (the pool is closed by its owner). */
  close(): void {
    clearInterval(this.purgeTimer);
  }

  private async purge(): Promise<void> {
    await this.pool.query('DELETE FROM llm_gateway_responses WHERE created_at < $1', [this.now() - this.maxAgeMs]).catch(() => undefined);
  }
}
