import { type CodecContext, type LlmWarning, reportLoss } from '@llm/core';
import { PROTOCOL } from './protocol.js';

type Wire = Record<string, unknown>;

/** The least `top_p` Claude takes beside thinking. */
const THINKING_MIN_TOP_P = 0.95;

interface Fix {
  code: LlmWarning['code'];
  path: string;
  message: string;
  apply(body: Wire): void;
}

/**
 * What Claude refuses with a 400 in a Messages body, each with its fix (none for a body inside
 * its bounds):
 * - `temperature` above 1 (OpenAI and Gemini go to 2) is sent as 1;
 * - beside thinking (enabled or adaptive), a `temperature` other than 1, `top_k`, and a `top_p`
 *   below 0.95 are left out;
 * - forcing a tool (`tool_choice` any or tool) leaves thinking out: the forced call is the
 *   client's stated need, thinking only a preference;
 * - `temperature` and `top_p` together (OpenAI clients often send both): `top_p` is left out.
 * @see https://platform.claude.com/docs/en/build-with-claude/extended-thinking
 */
function outOfBounds(body: Wire): Fix[] {
  const fixes: Fix[] = [];
  const temperature = body.temperature;
  if (typeof temperature === 'number' && temperature > 1) {
    fixes.push({
      code: 'lossy-conversion',
      path: 'sampling.temperature',
      message: `temperature ${temperature} was sent as 1, the highest Claude takes`,
      apply: (out) => {
        out.temperature = 1;
      },
    });
  }
  const drop = (key: string, path: string, message: string) => fixes.push({ code: 'dropped-field', path, message, apply: (out) => delete out[key] });
  let keptTemperature = temperature !== undefined;
  let keptTopP = body.top_p !== undefined;
  const thinking = body.thinking as Wire | undefined;
  if (typeof thinking === 'object' && thinking !== null && thinking.type !== 'disabled') {
    const choice = body.tool_choice as Wire | undefined;
    if (choice?.type === 'any' || choice?.type === 'tool') {
      const message = 'Claude cannot think while a tool call is forced (tool_choice any or tool): sent without thinking';
      fixes.push({ code: 'dropped-field', path: 'reasoning', message, apply: (out) => delete out.thinking });
    } else {
      if (keptTemperature && temperature !== 1) {
        drop('temperature', 'sampling.temperature', 'Claude takes no temperature but 1 beside thinking');
        keptTemperature = false;
      }
      if (body.top_k !== undefined) drop('top_k', 'sampling.topK', 'Claude takes no top_k beside thinking');
      if (typeof body.top_p === 'number' && body.top_p < THINKING_MIN_TOP_P) {
        drop('top_p', 'sampling.topP', `Claude takes top_p of ${THINKING_MIN_TOP_P} to 1 beside thinking`);
        keptTopP = false;
      }
    }
  }
  // Current Claude models refuse both ("cannot both be specified for this model").
  if (keptTemperature && keptTopP) drop('top_p', 'sampling.topP', 'Claude takes temperature or top_p, not both: top_p was left out');
  return fixes;
}

/** Fits an encoded body from another protocol to Claude's bounds ({@link outOfBounds}), each change reported. */
export function fitToClaudeBounds(out: Wire, context: CodecContext | undefined): void {
  for (const fix of outOfBounds(out)) {
    reportLoss(context, { code: fix.code, path: fix.path, message: fix.message, protocol: PROTOCOL });
    fix.apply(out);
  }
}

/** True when a Claude client's body is outside Claude's bounds: it is sent back as it came, unfitted. */
export function isOutsideClaudeBounds(body: Wire): boolean {
  return outOfBounds(body).length > 0;
}
