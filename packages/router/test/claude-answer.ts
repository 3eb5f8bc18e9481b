/** A finished Claude Messages answer with one text block, as the API returns it. */
export function claudeTextMessage(text: string, model: string, usage: { input_tokens: number; output_tokens: number }): Record<string, unknown> {
  return { id: 'msg_1', type: 'message', role: 'assistant', model, content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage };
}
