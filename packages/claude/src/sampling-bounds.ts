import { type AnthropicSamplingFix, type CodecContext, anthropicSamplingFixes, reportLoss } from '@llm/core';
import { PROTOCOL } from './protocol.js';

type Wire = Record<string, unknown>;

/** Each setting's field in a Messages body. */
const WIRE_KEY: Readonly<Record<AnthropicSamplingFix['field'], string>> = { temperature: 'temperature', topP: 'top_p', topK: 'top_k', thinking: 'thinking' };

/** What Claude refuses in a Messages body, by core's rules ({@link anthropicSamplingFixes}). */
function outOfBounds(body: Wire): AnthropicSamplingFix[] {
  const thinking = body.thinking as Wire | undefined;
  const choice = body.tool_choice as Wire | undefined;
  return anthropicSamplingFixes({
    temperature: body.temperature,
    topP: body.top_p,
    topK: body.top_k,
    thinking: typeof thinking === 'object' && thinking !== null && thinking.type !== 'disabled',
    toolForced: choice?.type === 'any' || choice?.type === 'tool',
  });
}

/** Fits an encoded body from another protocol to Claude's bounds, each change reported. */
export function fitToClaudeBounds(out: Wire, context: CodecContext | undefined): void {
  for (const fix of outOfBounds(out)) {
    reportLoss(context, { code: fix.code, path: fix.path, message: fix.message, protocol: PROTOCOL });
    if (fix.value === undefined) delete out[WIRE_KEY[fix.field]];
    else out[WIRE_KEY[fix.field]] = fix.value;
  }
}

/** True when a Claude client's body is outside Claude's bounds: it is sent back as it came, unfitted. */
export function isOutsideClaudeBounds(body: Wire): boolean {
  return outOfBounds(body).length > 0;
}
