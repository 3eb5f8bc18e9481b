import type { RequestRecord } from '../router-contract.js';

/**
 * Joins the router's request records (reported through `onRequestEnd`, keyed by the router's
 * request id) with the client key id the gateway saw, whichever arrives first. The router
 * names its request id in the `x-request-id` response header; a non-streamed answer is
 * recorded before that response reaches the gateway, a stream after.
 */
export class KeyJoin {
  private readonly keys = new Map<string, string | undefined>();
  private readonly records = new Map<string, RequestRecord>();

  /** @param write receives each joined row; @param waitMs how long a record waits for its key. */
  constructor(
    private readonly write: (record: RequestRecord, keyId: string | undefined) => void,
    private readonly waitMs = 5_000,
  ) {}

  /** The gateway saw the router's answer to a request made with `keyId`. */
  key(requestId: string, keyId: string | undefined): void {
    const record = this.records.get(requestId);
    if (record) {
      this.records.delete(requestId);
      this.write(record, keyId);
      return;
    }
    this.keys.set(requestId, keyId);
    setTimeout(() => this.keys.delete(requestId), this.waitMs).unref();
  }

  /** The router finished a request. */
  record(record: RequestRecord): void {
    if (this.keys.has(record.requestId)) {
      const keyId = this.keys.get(record.requestId);
      this.keys.delete(record.requestId);
      this.write(record, keyId);
      return;
    }
    this.records.set(record.requestId, record);
    setTimeout(() => {
      const waiting = this.records.get(record.requestId);
      if (!waiting) return;
      this.records.delete(record.requestId);
      this.write(waiting, undefined);
    }, this.waitMs).unref();
  }

  /** Writes what still waits (on shutdown), without key ids. */
  flush(): void {
    for (const record of this.records.values()) this.write(record, undefined);
    this.records.clear();
    this.keys.clear();
  }
}
