// A Claude upstream's streamed answer that takes its time: for tests of what happens while a
// stream is in flight (drain, timing in the access line).

const encoder = new TextEncoder();

/** One Claude SSE event, its `type` in the data as Anthropic writes it. */
export function claudeEvent(type: string, data: object): Uint8Array {
  return encoder.encode(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

/** Options of {@link slowClaudeStream}. */
export interface SlowClaudeOptions {
  /** Text deltas sent, one per `everyMs`. */
  deltas: number;
  everyMs: number;
  /** `message_start`'s usage. */
  usage: { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number };
}

/** A Claude SSE answer (`claude-slow`): one text delta (`"1 "`, `"2 "`...) every `everyMs`, then its end with `output_tokens: deltas`. */
export function slowClaudeStream(options: SlowClaudeOptions): Response {
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        claudeEvent('message_start', {
          message: {
            id: 'msg_slow',
            type: 'message',
            role: 'assistant',
            model: 'claude-slow',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: options.usage,
          },
        }),
      );
      controller.enqueue(claudeEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
      timer = setInterval(() => {
        sent += 1;
        controller.enqueue(claudeEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: `${sent} ` } }));
        if (sent < options.deltas) return;
        clearInterval(timer);
        controller.enqueue(claudeEvent('content_block_stop', { index: 0 }));
        controller.enqueue(claudeEvent('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: options.deltas } }));
        controller.enqueue(claudeEvent('message_stop', {}));
        controller.close();
      }, options.everyMs);
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}
