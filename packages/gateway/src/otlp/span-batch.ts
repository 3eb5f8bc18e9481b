import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ProtobufWriter } from './protobuf-writer.js';
import { resourceField, scopeField, writeSpan } from './span-encoding.js';

/** The spans of one resource and scope, as encoded `ScopeSpans.spans` fields. */
interface ScopeGroup {
  readonly scope: InstrumentationScope;
  readonly spans: ProtobufWriter;
}

/**
 * Ended spans encoded as they end, to be sent as one OTLP `ExportTraceServiceRequest`: a span's
 * objects are garbage as soon as it is added (the batch holds bytes, outside the JS heap), where
 * a batch of span objects lives until its export and is copied by every young-generation GC on
 * the way.
 */
export class SpanBatch {
  private readonly groups = new Map<Resource, Map<InstrumentationScope, ScopeGroup>>();
  /** Spans added. */
  count = 0;
  /** Bytes of the encoded spans. */
  bytes = 0;

  add(span: ReadableSpan): void {
    const group = this.groupOf(span.resource, span.instrumentationScope);
    const w = group.spans;
    const before = w.pos;
    w.tag(2, 2);
    const at = w.begin();
    writeSpan(w, span);
    w.end(at);
    this.count++;
    this.bytes += w.pos - before;
  }

  /** The `ExportTraceServiceRequest` of every span added. */
  encode(): Uint8Array {
    const request = new ProtobufWriter(this.bytes + 1024);
    for (const [resource, scopes] of this.groups) {
      request.tag(1, 2);
      const resourceSpans = request.begin();
      request.raw(resourceField(resource));
      for (const { scope, spans } of scopes.values()) {
        request.tag(2, 2);
        const scopeSpans = request.begin();
        request.raw(scopeField(scope));
        request.raw(spans.buffer.subarray(0, spans.pos));
        if (scope.schemaUrl) {
          request.tag(3, 2);
          request.string(scope.schemaUrl);
        }
        request.end(scopeSpans);
      }
      if (resource.schemaUrl) {
        request.tag(3, 2);
        request.string(resource.schemaUrl);
      }
      request.end(resourceSpans);
    }
    return request.buffer.subarray(0, request.pos);
  }

  private groupOf(resource: Resource, scope: InstrumentationScope): ScopeGroup {
    let scopes = this.groups.get(resource);
    if (!scopes) this.groups.set(resource, (scopes = new Map()));
    let group = scopes.get(scope);
    if (!group) scopes.set(scope, (group = { scope, spans: new ProtobufWriter(64 * 1024) }));
    return group;
  }
}
