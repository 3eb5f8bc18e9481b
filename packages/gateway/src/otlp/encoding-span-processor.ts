import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { SpanBatch } from './span-batch.js';

/** Where a batch goes: the OTLP exporter's `export` (the official exporter's transport, retries and timeout). */
export interface BatchExporter {
  export(batch: SpanBatch, done: (result: { code: number; error?: Error }) => void): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** Limits of an {@link EncodingSpanProcessor}, with the OpenTelemetry batch processor's defaults. */
export interface EncodingSpanProcessorOptions {
  /** Spans per export (default 512). */
  maxBatchSpans?: number;
  /** Encoded bytes per export (default 4 MiB): a batch of large spans goes early. */
  maxBatchBytes?: number;
  /** Milliseconds a span waits at most before its batch is sent (default 5,000). */
  delayMs?: number;
  /** Told of a batch that could not be exported (its spans are dropped) outside a flush. */
  onError?: (error: Error, spans: number) => void;
}

/** `ExportResultCode.SUCCESS` of @opentelemetry/core. */
const SUCCESS = 0;
/** `TraceFlags.SAMPLED`. */
const SAMPLED = 1;

/**
 * A span processor that encodes each sampled span to OTLP protobuf when it ends and sends the
 * bytes in batches (by count, size or age), in place of the SDK's `BatchSpanProcessor` +
 * protobuf serializer for the gateway's own exporter. The SDK's processor keeps up to 2,048 span
 * objects until an export encodes them in two passes; here a span is garbage once ended, and the
 * batch is one buffer. Batches in flight are bounded by the exporter (its concurrency limit: a
 * batch over it fails, and is reported, rather than queued without end).
 */
export class EncodingSpanProcessor implements SpanProcessor {
  private batch = new SpanBatch();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly pending = new Set<Promise<void>>();
  private stopped = false;
  private readonly maxBatchSpans: number;
  private readonly maxBatchBytes: number;
  private readonly delayMs: number;

  constructor(
    private readonly exporter: BatchExporter,
    private readonly options: EncodingSpanProcessorOptions = {},
  ) {
    this.maxBatchSpans = options.maxBatchSpans ?? 512;
    this.maxBatchBytes = options.maxBatchBytes ?? 4 * 1024 * 1024;
    this.delayMs = options.delayMs ?? 5_000;
  }

  onStart(_span: Span, _parentContext: Context): void {}

  onEnd(span: ReadableSpan): void {
    if (this.stopped || (span.spanContext().traceFlags & SAMPLED) === 0) return;
    this.batch.add(span);
    if (this.batch.count >= this.maxBatchSpans || this.batch.bytes >= this.maxBatchBytes) this.send().catch(() => {});
    else if (!this.timer) {
      this.timer = setTimeout(() => this.send().catch(() => {}), this.delayMs);
      this.timer.unref();
    }
  }

  /** Sends what is batched and waits for every export in flight; rejects when this flush's own export failed. */
  async forceFlush(): Promise<void> {
    const own = this.send(true);
    await Promise.allSettled([...this.pending]);
    await own;
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.forceFlush();
    } finally {
      this.stopped = true;
      await this.exporter.shutdown();
    }
  }

  /** Hands the batch to the exporter. A failure is reported through `onError`, or to a flush's caller (`flushing`). */
  private send(flushing = false): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.batch;
    if (batch.count === 0) return Promise.resolve();
    this.batch = new SpanBatch();
    const exported = new Promise<void>((resolve, reject) => {
      this.exporter.export(batch, (result) => {
        if (result.code === SUCCESS) return resolve();
        const error = result.error ?? new Error('the OTLP export failed');
        if (!flushing) this.options.onError?.(error, batch.count);
        reject(error);
      });
    });
    this.pending.add(exported);
    const settled = () => this.pending.delete(exported);
    exported.then(settled, settled);
    return exported;
  }
}
