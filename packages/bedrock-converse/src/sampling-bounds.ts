import { type AnthropicSamplingFix, type CodecContext, anthropicSamplingFixes, reportLoss } from '@llm/core';
import { PROTOCOL } from './protocol.js';
import { isAnthropicModel } from './thinking.js';

type Wire = Record<string, unknown>;

/** Where each setting sits in a Converse body: `inferenceConfig` or the model's own fields. */
const PLACE: Readonly<Record<AnthropicSamplingFix['field'], [holder: 'inferenceConfig' | 'additionalModelRequestFields', key: string]>> = {
  temperature: ['inferenceConfig', 'temperature'],
  topP: ['inferenceConfig', 'topP'],
  topK: ['additionalModelRequestFields', 'top_k'],
  thinking: ['additionalModelRequestFields', 'thinking'],
};

/** What a Claude model refuses in a Converse body, by core's rules ({@link anthropicSamplingFixes}); none for other models. */
function outOfBounds(body: Wire, model: string | undefined): AnthropicSamplingFix[] {
  if (!isAnthropicModel(model)) return [];
  const inference = (body.inferenceConfig ?? {}) as Wire;
  const fields = (body.additionalModelRequestFields ?? {}) as Wire;
  const thinking = fields.thinking as Wire | undefined;
  const choice = ((body.toolConfig ?? {}) as Wire).toolChoice as Wire | undefined;
  return anthropicSamplingFixes({
    temperature: inference.temperature,
    topP: inference.topP,
    topK: fields.top_k,
    thinking: typeof thinking === 'object' && thinking !== null && thinking.type !== 'disabled',
    toolForced: typeof choice === 'object' && choice !== null && ('any' in choice || 'tool' in choice),
  });
}

/** Fits an encoded body from another protocol to a Claude model's bounds, each change reported. */
export function fitToClaudeBounds(out: Wire, model: string, context: CodecContext | undefined): void {
  for (const fix of outOfBounds(out, model)) {
    reportLoss(context, { code: fix.code, path: fix.path, message: fix.message, protocol: PROTOCOL });
    const [holder, key] = PLACE[fix.field];
    const fields = out[holder] as Wire;
    if (fix.value !== undefined) fields[key] = fix.value;
    else {
      delete fields[key];
      if (Object.keys(fields).length === 0) delete out[holder];
    }
  }
}

/** True when a Converse client's body is outside its Claude model's bounds: it is sent back as it came, unfitted. */
export function isOutsideClaudeBounds(body: Wire, model: string | undefined): boolean {
  return outOfBounds(body, model).length > 0;
}
