import type { ServedProtocol } from '../served-protocols.js';
import { sse, sseResponse } from './script.js';

/** The message of the scripted mid-stream failure. */
export const MIDWAY_FAILURE_MESSAGE = 'Overloaded (scripted mid-stream failure)';

/** True for prompts asking for a stream that fails after it started (`fail midway`). */
export function wantsMidwayFailure(text: string): boolean {
  return /\bfail midway\b/i.test(text);
}

/**
 * Cuts a rendered SSE answer after its first half of events and ends it with the error event the
 * protocol sends mid-stream (the status line already said 200): Claude `event: error` with an
 * `overloaded_error`, OpenAI Chat and Gemini a `{"error": ...}` chunk, Responses an `error` event.
 */
export async function failMidway(protocol: ServedProtocol, rendered: Response): Promise<Response> {
  if (!rendered.headers.get('content-type')?.startsWith('text/event-stream')) return rendered;
  const frames = (await rendered.text()).split('\n\n').filter((frame) => frame !== '');
  const kept = frames.slice(0, Math.max(2, Math.floor(frames.length / 2))).map((frame) => `${frame}\n\n`);
  kept.push(errorFrame(protocol, kept.length));
  return sseResponse(kept);
}

function errorFrame(protocol: ServedProtocol, sequence: number): string {
  switch (protocol) {
    case 'claude':
      return sse({ type: 'error', error: { type: 'overloaded_error', message: MIDWAY_FAILURE_MESSAGE } }, 'error');
    case 'openai-chat':
      return sse({ error: { message: MIDWAY_FAILURE_MESSAGE, type: 'server_error', param: null, code: null } });
    case 'openai-responses':
      return sse({ type: 'error', code: 'server_error', message: MIDWAY_FAILURE_MESSAGE, param: null, sequence_number: sequence }, 'error');
    case 'gemini':
      return sse({ error: { code: 503, message: MIDWAY_FAILURE_MESSAGE, status: 'UNAVAILABLE' } });
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}
