/** Anything that takes log text: pino's stdout destination, a test stream. */
export interface TextWriter {
  write(text: string): unknown;
}

/**
 * Collects log lines into blocks and hands the writer a block once it reaches `blockBytes` (or on
 * `flush()`). A busy gateway writes one access-log line per request; a write call per line costs
 * more than the line itself.
 */
export class BlockSink {
  private pending = '';

  constructor(
    private readonly out: TextWriter,
    private readonly blockBytes = 32_768,
  ) {}

  write(line: string): void {
    this.pending += line;
    if (this.pending.length >= this.blockBytes) this.flush();
  }

  /** Hands over what is collected. */
  flush(): void {
    if (this.pending === '') return;
    const block = this.pending;
    this.pending = '';
    this.out.write(block);
  }
}
