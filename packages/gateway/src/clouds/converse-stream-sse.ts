import { type SseWriter, payloadText, sseEvent, stringHeader } from './eventstream-to-sse.js';

/** The exception a broken or erroring stream ends with (the Converse codec reads it as a server error). */
const FAILURE_EVENT = 'internalServerException';

/** JSON on one line: an SSE data line cannot hold a newline (AWS writes compact JSON; this is the guard). */
function oneLine(json: string): string {
  return json.includes('\n') || json.includes('\r') ? JSON.stringify(JSON.parse(json)) : json;
}

/**
 * ConverseStream's messages as the SSE the Converse codec reads: an event under its
 * `:event-type` (`messageStart`, `contentBlockDelta`, `metadata`...), an exception under its
 * `:exception-type` (`throttlingException`...), each with the message's JSON payload as data;
 * an error message or a broken stream as an `internalServerException`.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 */
export const converseSse: SseWriter = {
  message(message) {
    const kind = stringHeader(message, ':message-type');
    if (kind === 'event') {
      const name = stringHeader(message, ':event-type');
      if (!name) throw new Error('a ConverseStream event without :event-type');
      return sseEvent(name, oneLine(payloadText(message)));
    }
    if (kind === 'exception') return sseEvent(stringHeader(message, ':exception-type') ?? FAILURE_EVENT, oneLine(payloadText(message)));
    return converseSse.failure(stringHeader(message, ':error-message') ?? 'Bedrock ended the stream with an error');
  },
  failure: (message) => sseEvent(FAILURE_EVENT, JSON.stringify({ message })),
};
