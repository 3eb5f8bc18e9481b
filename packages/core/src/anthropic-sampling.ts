import type { LlmWarningCode } from './warnings.js';

/** The settings of a request that Anthropic's sampling rules look at, whatever the wire. */
export interface AnthropicSamplingSettings {
  temperature?: unknown;
  topP?: unknown;
  topK?: unknown;
  /** Thinking is on (enabled or adaptive). */
  thinking: boolean;
  /** The tool choice forces a call (any tool, or a named one). */
  toolForced: boolean;
}

/** One change that brings a request inside Anthropic's bounds: set `field` to `value`, or leave it out (no `value`). */
export interface AnthropicSamplingFix {
  field: 'temperature' | 'topP' | 'topK' | 'thinking';
  value?: number;
  code: LlmWarningCode;
  /** The canonical path the warning names. */
  path: string;
  message: string;
}

/** The least `top_p` Claude takes beside thinking. */
const THINKING_MIN_TOP_P = 0.95;

/**
 * What Claude refuses with a 400 in these settings, on any wire that carries them (the Messages
 * API, Claude models on Converse), each with its fix; none for settings inside its bounds:
 * - a temperature above 1 (OpenAI and Gemini go to 2) is sent as 1;
 * - beside thinking, a temperature other than 1, top_k, and a top_p below 0.95 are left out;
 * - thinking with a forced tool call is left out: the forced call is the client's stated need,
 *   thinking only a preference;
 * - temperature and top_p together (current Claude models refuse both): top_p is left out.
 * @see https://platform.claude.com/docs/en/build-with-claude/extended-thinking
 */
export function anthropicSamplingFixes(settings: AnthropicSamplingSettings): AnthropicSamplingFix[] {
  const fixes: AnthropicSamplingFix[] = [];
  const { temperature, topP } = settings;
  let keptTemperature = temperature !== undefined;
  let keptTopP = topP !== undefined;
  if (typeof temperature === 'number' && temperature > 1) {
    fixes.push({
      field: 'temperature',
      value: 1,
      code: 'lossy-conversion',
      path: 'sampling.temperature',
      message: `temperature ${temperature} was sent as 1, the highest Claude takes`,
    });
  }
  if (settings.thinking) {
    if (settings.toolForced) {
      const message = 'Claude cannot think while a tool call is forced (tool_choice any or tool): sent without thinking';
      fixes.push({ field: 'thinking', code: 'dropped-field', path: 'reasoning', message });
    } else {
      if (keptTemperature && temperature !== 1) {
        fixes.push({ field: 'temperature', code: 'dropped-field', path: 'sampling.temperature', message: 'Claude takes no temperature but 1 beside thinking' });
        keptTemperature = false;
      }
      if (settings.topK !== undefined) {
        fixes.push({ field: 'topK', code: 'dropped-field', path: 'sampling.topK', message: 'Claude takes no top_k beside thinking' });
      }
      if (typeof topP === 'number' && topP < THINKING_MIN_TOP_P) {
        const message = `Claude takes top_p of ${THINKING_MIN_TOP_P} to 1 beside thinking`;
        fixes.push({ field: 'topP', code: 'dropped-field', path: 'sampling.topP', message });
        keptTopP = false;
      }
    }
  }
  if (keptTemperature && keptTopP) {
    fixes.push({ field: 'topP', code: 'dropped-field', path: 'sampling.topP', message: 'Claude takes temperature or top_p, not both: top_p was left out' });
  }
  return fixes;
}
