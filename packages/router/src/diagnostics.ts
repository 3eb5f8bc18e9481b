import type { LlmMessage, LlmResponse, LlmStreamEvent } from '@llm/core';

/**
 * What a request's debug line shows beyond its record (`RouterConfig.diagnostics`): the route
 * rule it matched, the upstream's status and how many calls it took, and the tool traffic, as
 * short previews with secrets masked.
 */
export interface RequestDiagnostics {
  /** The `match` of the route rule the client model matched. */
  rule: string;
  /** Upstream calls made: retries and fallbacks included. */
  attempts: number;
  /** Status of the last upstream answer (absent when none answered). */
  upstreamStatus?: number;
  /** Tool calls in the answer. */
  toolCalls: number;
  /** `name(arguments)` of the answer's first tool calls, capped. */
  toolCallPreviews: string[];
  /** Text of the tool results the request sent upstream (its latest turn), capped. */
  toolResultPreviews: string[];
}

/** Longest preview, in characters. */
export const DIAGNOSTIC_PREVIEW_CHARS = 120;
/** Previews kept per list. */
const MAX_PREVIEWS = 5;

/**
 * Values that look like credentials: provider key prefixes, bearer tokens, and `key=value`
 * pairs whose key names a secret. A tool result may print an `.env` file; the log must not.
 */
const SECRET = new RegExp(
  [
    String.raw`\b(?:sk|pk|rk)-[\w-]{8,}`,
    String.raw`\bsk-ant-[\w-]{8,}`,
    String.raw`\bAIza[\w-]{20,}`,
    String.raw`\bAKIA[0-9A-Z]{16}\b`,
    String.raw`\bgh[pousr]_\w{20,}`,
    String.raw`\bxox[abpr]-[\w-]{10,}`,
    String.raw`\beyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]*`,
    String.raw`\bBearer\s+[\w.~+/=-]+`,
    // The value of a secret-named key, an auth scheme before it included.
    String.raw`(?:api[_-]?key|token|secret|password|passwd|authorization)["']?\s*[:=]\s*["']?(?:(?:Bearer|Basic|Token)\s+)?[^\s"',}]+`,
  ].join('|'),
  'gi',
);

/** `text` with secrets masked, on one line, at most {@link DIAGNOSTIC_PREVIEW_CHARS} characters. */
export function diagnosticPreview(text: string): string {
  // Only the head is shown: mask a little beyond it, so a secret cut at the edge is still caught.
  const head = text.length > DIAGNOSTIC_PREVIEW_CHARS * 2 ? text.slice(0, DIAGNOSTIC_PREVIEW_CHARS * 2) : text;
  const masked = head.replace(SECRET, '[redacted]').replace(/\s+/g, ' ').trim();
  return masked.length > DIAGNOSTIC_PREVIEW_CHARS ? `${masked.slice(0, DIAGNOSTIC_PREVIEW_CHARS - 1)}…` : masked;
}

export function startDiagnostics(rule: string): RequestDiagnostics {
  return { rule, attempts: 0, toolCalls: 0, toolCallPreviews: [], toolResultPreviews: [] };
}

/** Notes the tool results of the request's latest turn (the messages after the last assistant turn). */
export function noteToolResults(diagnostics: RequestDiagnostics, messages: LlmMessage[]): void {
  diagnostics.toolResultPreviews = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as LlmMessage;
    if (message.role === 'assistant') break;
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const text =
        typeof part.content === 'string' ? part.content : part.content.map((item) => (item.type === 'text' ? item.text : `[${item.type}]`)).join(' ');
      diagnostics.toolResultPreviews.unshift(diagnosticPreview(text));
    }
  }
  diagnostics.toolResultPreviews.splice(MAX_PREVIEWS);
}

/** Notes the tool calls of a whole answer. */
export function noteAnswer(diagnostics: RequestDiagnostics, response: LlmResponse): void {
  for (const choice of response.choices) {
    for (const part of choice.content) {
      if (part.type !== 'tool-call') continue;
      diagnostics.toolCalls++;
      if (diagnostics.toolCallPreviews.length < MAX_PREVIEWS) {
        const args = typeof part.arguments === 'string' ? part.arguments : JSON.stringify(part.arguments);
        diagnostics.toolCallPreviews.push(diagnosticPreview(`${part.name}(${args})`));
      }
    }
  }
}

/**
 * An observer of a streamed answer's events noting its tool calls; `end()` writes the previews.
 * Arguments are kept up to twice the preview length per call, so a huge argument costs no more.
 */
export function streamedToolCalls(diagnostics: RequestDiagnostics): { onEvent(event: LlmStreamEvent): void; end(): void } {
  const calls = new Map<number, { name: string; args: string }>();
  return {
    onEvent(event) {
      if (event.type === 'block-start' && event.block.kind === 'tool_call') {
        diagnostics.toolCalls++;
        if (calls.size < MAX_PREVIEWS) calls.set(event.index, { name: event.block.name, args: '' });
      } else if (event.type === 'tool-args-delta') {
        const call = calls.get(event.index);
        if (call && call.args.length < DIAGNOSTIC_PREVIEW_CHARS * 2) call.args += event.json;
      }
    },
    end() {
      diagnostics.toolCallPreviews = [...calls.values()].map((call) => diagnosticPreview(`${call.name}(${call.args})`));
    },
  };
}
