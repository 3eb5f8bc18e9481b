/**
 * Where the gateway keeps the Responses answers it served, for `GET /v1/responses/{id}`: in
 * memory by default (`ResponseStore`), in PostgreSQL when `store.postgres` is configured.
 *
 * Each answer belongs to the client key that created it (its key id; undefined for an open
 * gateway): another key is told it does not exist.
 */
export interface AnswerStore {
  /** The response object stored under `id` for `owner`; undefined when missing or another owner's. */
  get(id: string, owner?: string): string | undefined | Promise<string | undefined>;
  /** Keeps one response object (JSON text with an `id`) for `owner`; never throws, never blocks the request. */
  put(json: string, owner?: string): void;
}
