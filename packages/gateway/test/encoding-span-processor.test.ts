import { TraceFlags } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type BatchExporter, EncodingSpanProcessor } from '../src/otlp/encoding-span-processor.js';
import { exportFailureLog } from '../src/otlp/export-failure-log.js';
import type { SpanBatch } from '../src/otlp/span-batch.js';

/** An exporter that records each batch's span count and answers as told (0 success, 1 failure). */
function recordingExporter(answer: () => { code: number; error?: Error } = () => ({ code: 0 })) {
  const batches: number[] = [];
  const calls: string[] = [];
  const exporter: BatchExporter = {
    export(batch: SpanBatch, done) {
      batches.push(batch.count);
      expect(batch.encode().length).toBeGreaterThan(0);
      queueMicrotask(() => done(answer()));
    },
    forceFlush: async () => {
      calls.push('forceFlush');
    },
    shutdown: async () => {
      calls.push('shutdown');
    },
  };
  return { exporter, batches, calls };
}

/** Ended SDK spans to hand the processor (sampled unless told). */
function endedSpans(count: number, sampled = true): ReadableSpan[] {
  const ended: ReadableSpan[] = [];
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'gw-test' }),
    spanProcessors: [{ onStart() {}, onEnd: (span) => ended.push(span), forceFlush: async () => {}, shutdown: async () => {} }],
  });
  const tracer = provider.getTracer('t');
  for (let index = 0; index < count; index++) {
    const span = tracer.startSpan(`s${index}`);
    span.setAttribute('index', index);
    span.end();
  }
  if (!sampled) for (const span of ended) span.spanContext().traceFlags = TraceFlags.NONE;
  return ended;
}

afterEach(() => vi.useRealTimers());

describe('EncodingSpanProcessor', () => {
  it('sends a batch when it holds maxBatchSpans spans, and the rest on flush', async () => {
    const { exporter, batches } = recordingExporter();
    const processor = new EncodingSpanProcessor(exporter, { maxBatchSpans: 3 });
    for (const span of endedSpans(7)) processor.onEnd(span);
    expect(batches).toEqual([3, 3]);
    await processor.forceFlush();
    expect(batches).toEqual([3, 3, 1]);
  });

  it('sends a batch by size before its count is reached', () => {
    const { exporter, batches } = recordingExporter();
    const processor = new EncodingSpanProcessor(exporter, { maxBatchSpans: 100, maxBatchBytes: 1 });
    for (const span of endedSpans(2)) processor.onEnd(span);
    expect(batches).toEqual([1, 1]);
  });

  it('sends what waited delayMs, once', async () => {
    vi.useFakeTimers();
    const { exporter, batches } = recordingExporter();
    const processor = new EncodingSpanProcessor(exporter, { delayMs: 5_000 });
    for (const span of endedSpans(2)) processor.onEnd(span);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([2]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(batches).toEqual([2]);
  });

  it('skips spans that are not sampled, as the SDK batch processor does', async () => {
    const { exporter, batches } = recordingExporter();
    const processor = new EncodingSpanProcessor(exporter);
    for (const span of endedSpans(3, false)) processor.onEnd(span);
    await processor.forceFlush();
    expect(batches).toEqual([]);
  });

  it('reports a failed background batch to onError with its span count; a flush rejects with its own failure instead', async () => {
    const failure = new Error('collector said 503');
    const { exporter } = recordingExporter(() => ({ code: 1, error: failure }));
    const errors: Array<[string, number]> = [];
    const processor = new EncodingSpanProcessor(exporter, { maxBatchSpans: 2, onError: (error, spans) => errors.push([error.message, spans]) });
    for (const span of endedSpans(3)) processor.onEnd(span);
    await expect(processor.forceFlush()).rejects.toBe(failure);
    expect(errors).toEqual([['collector said 503', 2]]);
  });

  it('shuts down once: flushes, then shuts the exporter down even when the last export fails, and takes no span after', async () => {
    let fail = false;
    const { exporter, batches, calls } = recordingExporter(() => (fail ? { code: 1 } : { code: 0 }));
    const processor = new EncodingSpanProcessor(exporter);
    const [first, second] = endedSpans(2);
    processor.onEnd(first!);
    fail = true;
    await expect(processor.shutdown()).rejects.toThrow('the OTLP export failed');
    expect(calls).toEqual(['shutdown']);
    processor.onEnd(second!);
    await processor.shutdown();
    expect(batches).toEqual([1]);
    expect(calls).toEqual(['shutdown']);
  });
});

describe('exportFailureLog', () => {
  it('logs the first failure at once, then one line a minute with the spans dropped since', () => {
    const lines: Array<[unknown, string]> = [];
    let now = 1_000_000;
    const report = exportFailureLog({ warn: ((fields: unknown, message: string) => lines.push([fields, message])) as never }, () => now);
    report(new Error('refused'), 512);
    now += 5_000;
    report(new Error('refused'), 512);
    now += 54_999;
    report(new Error('refused'), 100);
    expect(lines).toEqual([[{ err: 'refused', droppedSpans: 512 }, 'tracing: spans dropped, the collector did not take them']]);
    now += 1;
    report(new Error('timeout'), 7);
    expect(lines[1]).toEqual([{ err: 'timeout', droppedSpans: 619 }, 'tracing: spans dropped, the collector did not take them']);
  });
});
