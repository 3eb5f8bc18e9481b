import type { LlmWarning } from '@llm/core';

/**
 * Translation warnings of one request, bounded: a hostile body (100,000 unknown keys) must not
 * make 100,000 warnings, log lines or header items. The first `max` are kept; the rest are only
 * counted.
 */

/** Default of `RouterConfig.maxWarningsPerRequest`. */
export const DEFAULT_MAX_WARNINGS_PER_REQUEST = 100;

/** Longest `x-llm-warnings` value, in bytes (its items are ASCII); what does not fit becomes `+N more`. */
export const MAX_WARNINGS_HEADER_BYTES = 4096;

/** The warnings of one request: the first `max` kept (and passed to `onKept`), the rest counted. */
export class WarningCollector {
  readonly kept: LlmWarning[] = [];
  dropped = 0;

  constructor(
    private readonly max: number,
    private readonly onKept?: (warning: LlmWarning) => void,
  ) {}

  add(warning: LlmWarning): void {
    if (this.kept.length >= this.max) {
      this.dropped += 1;
      return;
    }
    this.kept.push(warning);
    try {
      this.onKept?.(warning);
    } catch {
      // Hooks never break requests.
    }
  }
}

/**
 * The `x-llm-warnings` value: `code@path` items joined by `, `, every byte outside printable
 * ASCII (and `,` `%`) percent-encoded as UTF-8, at most {@link MAX_WARNINGS_HEADER_BYTES} bytes;
 * the items that did not fit, and the `dropped` ones, are counted in a last `+N more` item.
 * Any client-chosen text (a body key in a path) is safe in a header after this.
 */
export function warningsHeaderValue(warnings: readonly LlmWarning[], dropped: number): string {
  // Room kept for the largest summary this value could need.
  const summaryRoom = `, +${warnings.length + dropped} more`.length;
  let value = '';
  let included = 0;
  for (const warning of warnings) {
    const item = headerSafe(`${warning.code}@${warning.path}`);
    const next = value === '' ? item : `${value}, ${item}`;
    if (next.length + summaryRoom > MAX_WARNINGS_HEADER_BYTES) break;
    value = next;
    included += 1;
  }
  const left = warnings.length - included + dropped;
  if (left === 0) return value;
  const summary = `+${left} more`;
  return value === '' ? summary : `${value}, ${summary}`;
}

/** Bytes a header item may hold as they are: printable ASCII but the item separator `,` and the escape `%`. */
const UNSAFE = /[^\x21-\x24\x26-\x2b\x2d-\x7e]/;
const UTF8 = new TextEncoder();

function headerSafe(text: string): string {
  if (!UNSAFE.test(text)) return text;
  let out = '';
  // TextEncoder turns lone surrogates into U+FFFD, so no input can fail here.
  for (const byte of UTF8.encode(text)) {
    out += byte >= 0x21 && byte <= 0x7e && byte !== 0x25 && byte !== 0x2c ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
