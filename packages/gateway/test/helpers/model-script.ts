// An upstream of one protocol (Chat or Gemini) answering from a script, turn by turn, and
// recording every request body: for end-to-end tests where the model calls tools (the MCP loop).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted model turn: a text answer, or one function call. */
export type ModelTurn = { text: string } | { call: { name: string; args: Record<string, unknown> } };

export interface ModelScript {
  /** The upstream's base URL (Chat: `<origin>/v1`; Gemini: `<origin>`). */
  readonly baseUrl: string;
  /** Each request's JSON body and path, in order (empty it between tests: answer ids count from it). */
  readonly received: { path: string; body: Record<string, unknown> }[];
  /** Queues turns, answered in order, as JSON or a stream as each request asks. */
  push(...turns: ModelTurn[]): void;
  close(): Promise<void>;
}

const USAGE = { prompt: 10, completion: 5 };

function chatAnswer(turn: ModelTurn, index: number, stream: boolean): { type: string; body: string } {
  const id = `chatcmpl-${index}`;
  const toolCall =
    'call' in turn ? { id: `call_${index}`, type: 'function', function: { name: turn.call.name, arguments: JSON.stringify(turn.call.args) } } : undefined;
  const finish = toolCall ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: USAGE.prompt, completion_tokens: USAGE.completion, total_tokens: USAGE.prompt + USAGE.completion };
  const base = { id, created: 1_700_000_000, model: 'gpt-test' };
  if (!stream) {
    const message = toolCall ? { role: 'assistant', content: null, tool_calls: [toolCall] } : { role: 'assistant', content: (turn as { text: string }).text };
    return {
      type: 'application/json',
      body: JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage }),
    };
  }
  const chunk = (choices: unknown[], extra: object = {}) => `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`;
  const delta = toolCall ? { role: 'assistant', tool_calls: [{ index: 0, ...toolCall }] } : { role: 'assistant', content: (turn as { text: string }).text };
  return {
    type: 'text/event-stream',
    body: [
      chunk([{ index: 0, delta, finish_reason: null }]),
      chunk([{ index: 0, delta: {}, finish_reason: finish }]),
      chunk([], { usage }),
      'data: [DONE]\n\n',
    ].join(''),
  };
}

function geminiAnswer(turn: ModelTurn, stream: boolean): { type: string; body: string } {
  const part = 'call' in turn ? { functionCall: { name: turn.call.name, args: turn.call.args } } : { text: turn.text };
  const answer = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: USAGE.prompt, candidatesTokenCount: USAGE.completion, totalTokenCount: USAGE.prompt + USAGE.completion },
    modelVersion: 'gemini-test',
  };
  return stream ? { type: 'text/event-stream', body: `data: ${JSON.stringify(answer)}\r\n\r\n` } : { type: 'application/json', body: JSON.stringify(answer) };
}

/** Starts a scripted model upstream on a free loopback port; a request with no turn queued gets 500. */
export async function startModelScript(protocol: 'openai-chat' | 'gemini'): Promise<ModelScript> {
  const turns: ModelTurn[] = [];
  const received: ModelScript['received'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      received.push({ path, body });
      const turn = turns.shift();
      if (!turn) return void response.writeHead(500, { 'content-type': 'text/plain' }).end('no scripted turn');
      // Ids count the requests since `received` was last emptied: `call_1` is the first call of a test.
      const answer =
        protocol === 'gemini' ? geminiAnswer(turn, path.includes(':streamGenerateContent')) : chatAnswer(turn, received.length, body.stream === true);
      response.writeHead(200, { 'content-type': answer.type }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: protocol === 'gemini' ? origin : `${origin}/v1`,
    received,
    push: (...next) => void turns.push(...next),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
