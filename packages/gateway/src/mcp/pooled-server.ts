import type { McpClient } from './sdk-client.js';

/**
 * One connection to a gateway-configured MCP server, opened on first use and shared by every
 * request after it. A connection that closes (a stdio server that exited) or fails is dropped,
 * and the next use opens a new one (starting the stdio server again). `close()` closes it for good
 * (a stdio server's process is ended).
 */
export class PooledServer {
  private current: Promise<McpClient> | undefined;
  private closed = false;

  constructor(private readonly open: () => Promise<McpClient>) {}

  /** The connection, opened when there is none. */
  client(): Promise<McpClient> {
    if (this.closed) return Promise.reject(new Error('the MCP host is closed'));
    if (this.current) return this.current;
    const opening = this.open().then((client) => {
      client.onclose = () => this.forget(opening);
      if (this.closed) void client.close().catch(() => undefined);
      return client;
    });
    opening.catch(() => this.forget(opening));
    this.current = opening;
    return opening;
  }

  /** Drops `client` after a failure that may have broken it: the next use connects again. */
  discard(client: McpClient): void {
    const current = this.current;
    if (!current) return;
    void current.then((open) => {
      if (open !== client || this.current !== current) return;
      this.current = undefined;
      void client.close().catch(() => undefined);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const current = this.current;
    this.current = undefined;
    const client = await current?.catch(() => undefined);
    await client?.close().catch(() => undefined);
  }

  private forget(opening: Promise<McpClient>): void {
    if (this.current === opening) this.current = undefined;
  }
}
