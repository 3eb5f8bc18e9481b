import { stepStream, type LlmFinishReason, type LlmResponse, type LlmStreamEvent, type StreamStep } from '@llm/core';

/**
 * Response-side canonical fixes applied by every bridge.
 *
 * A choice that carries tool calls but finishes with `stop` is reported as `tool_calls`: agent
 * clients only run tools when the finish reason says so (a `tool_use` block next to `end_turn`
 * is never run).
 */
export function fixToolCallFinish(response: LlmResponse): LlmResponse {
  for (const choice of response.choices) {
    if (choice.finishReason === 'stop' && choice.content.some((part) => part.type === 'tool-call')) {
      choice.finishReason = 'tool_calls';
    }
  }
  return response;
}

/** The stream form of {@link fixToolCallFinish}: remembers which choices opened a tool call. */
export function fixToolCallFinishStream(): TransformStream<LlmStreamEvent, LlmStreamEvent> {
  return stepStream(fixToolCallFinishStep());
}

/** {@link fixToolCallFinishStream} as a stream step. */
export function fixToolCallFinishStep(): StreamStep<LlmStreamEvent, LlmStreamEvent> {
  const withToolCalls = new Set<number>();
  return {
    transform(event, controller) {
      if (event.type === 'block-start' && event.block.kind === 'tool_call') withToolCalls.add(event.choice ?? 0);
      else if (event.type === 'finish' && event.reason === 'stop' && withToolCalls.has(event.choice ?? 0)) {
        const reason: LlmFinishReason = 'tool_calls';
        controller.enqueue({ ...event, reason });
        return;
      }
      controller.enqueue(event);
    },
  };
}
