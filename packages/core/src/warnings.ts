import { LlmError } from './errors.js';
import type { ProtocolId } from './protocol.js';

/**
 * Well-known warning codes. Codecs may add their own (a string), but reuse these where they fit
 * so that routers and logs can group them.
 * - `dropped-field`: a field the target cannot express was left out.
 * - `dropped-part`: a content part or message was left out.
 * - `dropped-tool`: a tool definition was left out.
 * - `lossy-conversion`: kept, but not exactly (a budget rounded to a level, a schema simplified).
 * - `foreign-state`: opaque state issued by another provider was not replayed.
 * - `invalid-state`: an opaque-state blob was corrupt or of an unknown version and was ignored.
 * - `unknown-event`: a stream event of an unknown type was skipped.
 * - `defaulted`: a value the target requires was filled in (Claude `max_tokens`).
 */
export type LlmWarningCode =
  | 'dropped-field'
  | 'dropped-part'
  | 'dropped-tool'
  | 'lossy-conversion'
  | 'foreign-state'
  | 'invalid-state'
  | 'unknown-event'
  | 'defaulted'
  | (string & {});

/** A loss or adjustment made during translation. Data, not an exception. */
export interface LlmWarning {
  code: LlmWarningCode;
  /** JSON path in the input where it happened, e.g. `tools[3]`. */
  path: string;
  message: string;
  /** Protocol of the codec that reported it. */
  protocol?: ProtocolId;
}

/** Options every decode / encode call takes. All optional. */
export interface CodecContext {
  /** Receives every warning. Without it, warnings are discarded. */
  warn?: (warning: LlmWarning) => void;
  /**
   * Turn losses into errors: {@link reportLoss} throws `LlmError` kind `unsupported` instead of
   * warning. Adjustments that lose nothing (`defaulted`) stay warnings.
   */
  strict?: boolean;
  /** The model, where the protocol carries it outside the body (Gemini URLs). */
  model?: string;
  /** The stream flag, where the protocol carries it outside the body (Gemini URLs). */
  stream?: boolean;
  /**
   * Encoding for an upstream that enforces tool schemas (OpenAI strict mode): every function tool
   * and JSON response schema goes out in the strict form (objects closed, every property
   * required, optional ones nullable). Encoders of protocols without strict mode ignore it.
   */
  strictTools?: boolean;
}

const NOT_LOSSES = new Set<string>(['defaulted', 'unknown-event']);

/**
 * Reports a warning through `context.warn`. In strict mode a loss throws `LlmError` kind
 * `unsupported` with the warning's path instead.
 */
export function reportLoss(context: CodecContext | undefined, warning: LlmWarning): void {
  if (context?.strict && !NOT_LOSSES.has(warning.code)) {
    throw new LlmError({
      kind: 'unsupported',
      message: `${warning.path}: ${warning.message}`,
      path: warning.path,
      protocol: warning.protocol,
      code: warning.code,
    });
  }
  context?.warn?.(warning);
}
