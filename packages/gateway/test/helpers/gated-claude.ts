// A Claude upstream's streamed answer that waits for the test: its head and first delta at once,
// the rest only when released. For tests of what happens while a stream is held open, without
// timing it.

import { claudeEvent } from './slow-claude.js';

/** A held Claude SSE answer (`claude-gated`, text `"held "` then `"done"`) and what ends it. */
export interface GatedClaudeStream {
  response: Response;
  /** Sends the rest of the answer and ends it (once, and only while it is read: otherwise nothing). */
  release(): void;
}

export function gatedClaudeStream(): GatedClaudeStream {
  let release = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const message = { id: 'msg_gated', type: 'message', role: 'assistant', model: 'claude-gated', content: [], stop_reason: null, stop_sequence: null };
      controller.enqueue(claudeEvent('message_start', { message: { ...message, usage: { input_tokens: 3, output_tokens: 1 } } }));
      controller.enqueue(claudeEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
      controller.enqueue(claudeEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'held ' } }));
      release = () => {
        release = () => {};
        controller.enqueue(claudeEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'done' } }));
        controller.enqueue(claudeEvent('content_block_stop', { index: 0 }));
        controller.enqueue(claudeEvent('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }));
        controller.enqueue(claudeEvent('message_stop', {}));
        controller.close();
      };
    },
    // The reader went away (a cut stream): nothing left to release.
    cancel() {
      release = () => {};
    },
  });
  return { response: new Response(body, { headers: { 'content-type': 'text/event-stream' } }), release: () => release() };
}
