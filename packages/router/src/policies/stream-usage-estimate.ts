import type { LlmStreamEvent, StepOutput, StreamStep } from '@llm/core';

/** What a stream's usage estimate starts from, and who hears that one was made. */
export interface StreamUsageEstimate {
  /** Estimated prompt tokens (the router uses the upstream body's size, see `estimateTokens`). */
  inputTokens: number;
  /** Called once when an estimate replaces usage the upstream did not report. */
  onEstimated(): void;
}

/**
 * Fills in usage on a stream whose upstream reported none (an OpenAI-compatible server ignoring
 * `stream_options.include_usage`), so the client sees an estimate rather than zeros: the given
 * input estimate and one token per three UTF-8 bytes of the streamed text, reasoning and tool
 * arguments (the count-tokens estimate's rule: high rather than low). Only the first choice's
 * finish gets it; a stream with any usage from the upstream passes unchanged. Cost: a length sum
 * per delta.
 */
export function streamUsageEstimateStep(estimate: StreamUsageEstimate): StreamStep<LlmStreamEvent, LlmStreamEvent> {
  let reported = false;
  let estimated = false;
  let outputBytes = 0;
  return {
    transform(event: LlmStreamEvent, out: StepOutput<LlmStreamEvent>) {
      switch (event.type) {
        case 'usage':
          reported = true;
          break;
        case 'text-delta':
        case 'reasoning-delta':
          outputBytes += utf8Length(event.text);
          break;
        case 'tool-args-delta':
          outputBytes += utf8Length(event.json);
          break;
        case 'finish':
          if (event.usage) reported = true;
          else if (!reported && !estimated && (event.choice ?? 0) === 0) {
            estimated = true;
            const outputTokens = Math.ceil(outputBytes / 3);
            out.enqueue({ ...event, usage: { inputTokens: estimate.inputTokens, outputTokens, totalTokens: estimate.inputTokens + outputTokens } });
            estimate.onEstimated();
            return;
          }
          break;
        default:
          break;
      }
      out.enqueue(event);
    },
  };
}

/** UTF-8 byte length without encoding the string. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x80) bytes += code >= 0x800 && (code < 0xd800 || code > 0xdfff) ? 2 : 1;
  }
  return bytes;
}
