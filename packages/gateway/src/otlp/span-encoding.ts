import type { Attributes, HrTime, Link, SpanContext } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { ProtobufWriter } from './protobuf-writer.js';

/*
 * OTLP trace messages in protobuf, written field by field in field-number order with proto3's
 * defaults left out where the OpenTelemetry JS serializer leaves them out, so both write the same
 * bytes for the same spans (a test compares them). Field numbers from opentelemetry-proto:
 * @see https://github.com/open-telemetry/opentelemetry-proto/blob/main/opentelemetry/proto/trace/v1/trace.proto
 * @see https://github.com/open-telemetry/opentelemetry-proto/blob/main/opentelemetry/proto/common/v1/common.proto
 */

const LENGTH_DELIMITED = 2;
const VARINT = 0;
const FIXED64 = 1;
const FIXED32 = 5;
/** Span and link `flags`: bit 8 says whether bit 9 (the parent / linked context is remote) is known. */
const FLAGS_HAS_IS_REMOTE = 0x100;
const FLAGS_IS_REMOTE = 0x200;
const TWO_32 = 4294967296;
const INT64_MIN = -(2 ** 63);
const INT64_MAX = 2 ** 63;

/** Attribute keys are few and fixed (the gateway's own): each one's `KeyValue.key` field encoded once. */
const KEY_FIELDS = new Map<string, Buffer>();
const MAX_CACHED_KEYS = 1024;

/**
 * Most attributes repeat from span to span (the operation, provider, server, models, protocol):
 * a whole `KeyValue` (its length and body) encoded once per key and primitive value, up to
 * {@link MAX_VALUES_PER_KEY} values a key (a key whose values never repeat, like a request id,
 * fills its share and is encoded each time after) and {@link MAX_CACHED_KEYS} keys.
 */
const KEY_VALUES = new Map<string, Map<string | number | boolean, Buffer>>();
const MAX_VALUES_PER_KEY = 32;
const MAX_CACHED_STRING = 128;

/** Encoded `Resource` and `InstrumentationScope` fields, once per object (a provider has one of each). */
const RESOURCE_FIELDS = new WeakMap<Resource, Buffer>();
const SCOPE_FIELDS = new WeakMap<InstrumentationScope, Buffer>();

/** A `Span` message's body (no tag or length). */
export function writeSpan(w: ProtobufWriter, span: ReadableSpan): void {
  const context = span.spanContext();
  writeContext(w, context);
  const parent = span.parentSpanContext;
  if (parent?.spanId) {
    w.tag(4, LENGTH_DELIMITED);
    w.hexBytes(parent.spanId);
  }
  w.tag(5, LENGTH_DELIMITED);
  w.string(span.name);
  // OTLP's SpanKind counts UNSPECIFIED as 0; the API's kinds start at INTERNAL = 0.
  if (span.kind != null) {
    w.tag(6, VARINT);
    w.varint(span.kind + 1);
  }
  w.tag(7, FIXED64);
  writeHrTime(w, span.startTime);
  w.tag(8, FIXED64);
  writeHrTime(w, span.endTime);
  writeAttributes(w, span.attributes, 9);
  w.tag(10, VARINT);
  w.varint(span.droppedAttributesCount);
  writeMessages(w, 11, span.events, writeEvent);
  w.tag(12, VARINT);
  w.varint(span.droppedEventsCount);
  writeMessages(w, 13, span.links, writeLink);
  w.tag(14, VARINT);
  w.varint(span.droppedLinksCount);
  w.tag(15, LENGTH_DELIMITED);
  const status = w.begin();
  if (span.status.message) {
    w.tag(2, LENGTH_DELIMITED);
    w.string(span.status.message);
  }
  w.tag(3, VARINT);
  w.varint(span.status.code);
  w.end(status);
  w.tag(16, FIXED32);
  w.fixed32(flagsOf(context, parent?.isRemote));
}

/** The `resource` field (1) of a `ResourceSpans`, tag included. */
export function resourceField(resource: Resource): Buffer {
  let field = RESOURCE_FIELDS.get(resource);
  if (!field) {
    const w = new ProtobufWriter(256);
    w.tag(1, LENGTH_DELIMITED);
    const at = w.begin();
    writeAttributes(w, resource.attributes, 1);
    w.tag(2, VARINT);
    w.varint(0);
    w.end(at);
    field = w.take();
    RESOURCE_FIELDS.set(resource, field);
  }
  return field;
}

/** The `scope` field (1) of a `ScopeSpans`, tag included. */
export function scopeField(scope: InstrumentationScope): Buffer {
  let field = SCOPE_FIELDS.get(scope);
  if (!field) {
    const w = new ProtobufWriter(256);
    w.tag(1, LENGTH_DELIMITED);
    const at = w.begin();
    w.tag(1, LENGTH_DELIMITED);
    w.string(scope.name);
    if (scope.version) {
      w.tag(2, LENGTH_DELIMITED);
      w.string(scope.version);
    }
    w.end(at);
    field = w.take();
    SCOPE_FIELDS.set(scope, field);
  }
  return field;
}

/** Each item as a message in repeated field `field`. */
function writeMessages<T>(w: ProtobufWriter, field: number, items: readonly T[], write: (w: ProtobufWriter, item: T) => void): void {
  for (const item of items) {
    w.tag(field, LENGTH_DELIMITED);
    const at = w.begin();
    write(w, item);
    w.end(at);
  }
}

function writeEvent(w: ProtobufWriter, event: TimedEvent): void {
  w.tag(1, FIXED64);
  writeHrTime(w, event.time);
  w.tag(2, LENGTH_DELIMITED);
  w.string(event.name);
  if (event.attributes) writeAttributes(w, event.attributes, 3);
  w.tag(4, VARINT);
  w.varint(event.droppedAttributesCount ?? 0);
}

function writeLink(w: ProtobufWriter, link: Link): void {
  const context = link.context;
  writeContext(w, context);
  if (link.attributes) writeAttributes(w, link.attributes, 4);
  w.tag(5, VARINT);
  w.varint(link.droppedAttributesCount ?? 0);
  w.tag(6, FIXED32);
  w.fixed32(flagsOf(context, context.isRemote));
}

/** Fields 1-3 of a `Span` and of a `Link` alike: trace id, span id, and the trace state when there is one. */
function writeContext(w: ProtobufWriter, context: SpanContext): void {
  w.tag(1, LENGTH_DELIMITED);
  w.hexBytes(context.traceId);
  w.tag(2, LENGTH_DELIMITED);
  w.hexBytes(context.spanId);
  const traceState = context.traceState?.serialize();
  if (traceState) {
    w.tag(3, LENGTH_DELIMITED);
    w.string(traceState);
  }
}

function flagsOf(context: SpanContext, remote: boolean | undefined): number {
  return (context.traceFlags & 0xff) | FLAGS_HAS_IS_REMOTE | (remote ? FLAGS_IS_REMOTE : 0);
}

/** An `HrTime` ([seconds, nanoseconds]) as fixed64 nanoseconds, exact: every partial sum stays under 2^53. */
function writeHrTime(w: ProtobufWriter, [seconds, nanos]: HrTime): void {
  // seconds * 1e9 + nanos = a * 2^16 + b
  const a = Math.floor(seconds / 65536) * 1e9;
  const b = (seconds % 65536) * 1e9 + nanos;
  const aLow = a % 65536;
  const lowSum = aLow * 65536 + (b % TWO_32);
  const high = Math.floor(a / 65536) + Math.floor(b / TWO_32) + Math.floor(lowSum / TWO_32);
  w.fixed64(lowSum % TWO_32, high);
}

/** Each attribute as a `KeyValue` in repeated field `field`. */
function writeAttributes(w: ProtobufWriter, attributes: Attributes, field: number): void {
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key)) continue;
    w.tag(field, LENGTH_DELIMITED);
    const value = attributes[key];
    const cacheable = typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= MAX_CACHED_STRING);
    if (!cacheable) {
      writeKeyValue(w, key, value);
      continue;
    }
    let values = KEY_VALUES.get(key);
    const cached = values?.get(value);
    if (cached) {
      w.raw(cached);
      continue;
    }
    const start = w.pos;
    writeKeyValue(w, key, value);
    if (!values && KEY_VALUES.size < MAX_CACHED_KEYS) KEY_VALUES.set(key, (values = new Map()));
    if (values && values.size < MAX_VALUES_PER_KEY) values.set(value, Buffer.from(w.buffer.subarray(start, w.pos)));
  }
}

/** A `KeyValue`'s length and body. */
function writeKeyValue(w: ProtobufWriter, key: string, value: unknown): void {
  const at = w.begin();
  writeKey(w, key);
  w.tag(2, LENGTH_DELIMITED);
  const valueAt = w.begin();
  writeAnyValue(w, value);
  w.end(valueAt);
  w.end(at);
}

function writeKey(w: ProtobufWriter, key: string): void {
  const cached = KEY_FIELDS.get(key);
  if (cached) return w.raw(cached);
  if (KEY_FIELDS.size >= MAX_CACHED_KEYS) {
    w.tag(1, LENGTH_DELIMITED);
    return w.string(key);
  }
  const own = new ProtobufWriter(key.length * 3 + 8);
  own.tag(1, LENGTH_DELIMITED);
  own.string(key);
  const field = own.take();
  KEY_FIELDS.set(key, field);
  w.raw(field);
}

/** An `AnyValue` body; nothing for null and undefined (an empty value). */
function writeAnyValue(w: ProtobufWriter, value: unknown): void {
  switch (typeof value) {
    case 'string':
      w.tag(1, LENGTH_DELIMITED);
      return w.string(value);
    case 'boolean':
      w.tag(2, VARINT);
      return w.varint(value ? 1 : 0);
    case 'number':
      if (Number.isInteger(value) && value >= INT64_MIN && value < INT64_MAX) {
        w.tag(3, VARINT);
        return w.varint(value);
      }
      w.tag(4, FIXED64);
      return w.double(value);
    case 'object':
      if (value === null) return;
      if (value instanceof Uint8Array) {
        w.tag(7, LENGTH_DELIMITED);
        return w.bytes(value);
      }
      if (Array.isArray(value)) {
        w.tag(5, LENGTH_DELIMITED);
        const array = w.begin();
        for (const item of value) {
          w.tag(1, LENGTH_DELIMITED);
          const at = w.begin();
          writeAnyValue(w, item);
          w.end(at);
        }
        return w.end(array);
      }
      w.tag(6, LENGTH_DELIMITED);
      {
        const list = w.begin();
        writeAttributes(w, value as Attributes, 1);
        return w.end(list);
      }
    default:
  }
}
