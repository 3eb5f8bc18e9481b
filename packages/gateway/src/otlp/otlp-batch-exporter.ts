import type { BatchExporter } from './encoding-span-processor.js';
import type { SpanBatch } from './span-batch.js';

/**
 * The OpenTelemetry OTLP/HTTP exporter's own transport (its retries with backoff, timeout,
 * concurrency limit, `OTEL_EXPORTER_OTLP_*` settings and response handling) sending
 * {@link SpanBatch}es: what the official protobuf trace exporter is, with the batch's encoding in
 * place of its span serializer.
 */
export async function otlpBatchExporter(options: { url: string; headers?: Record<string, string> }): Promise<BatchExporter> {
  const [base, http, transformer] = await Promise.all([
    import('@opentelemetry/otlp-exporter-base'),
    import('@opentelemetry/otlp-exporter-base/node-http'),
    import('@opentelemetry/otlp-transformer'),
  ]);
  const serializer = {
    serializeRequest: (batch: SpanBatch) => batch.encode(),
    deserializeResponse: (data: Uint8Array) => transformer.ProtobufTraceSerializer.deserializeResponse(data),
  };
  const delegate = http.createOtlpHttpExportDelegate(
    http.convertLegacyHttpOptions(options, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }),
    serializer,
    'otlp_http_span_exporter',
    { name: 'span', countItems: (batch: SpanBatch) => batch.count },
    undefined,
  );
  return new base.OTLPExporterBase(delegate);
}
