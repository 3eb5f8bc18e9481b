import { createHash } from 'node:crypto';

/** What the mock saw in a request, once the protocol module has validated it. */
export interface MockTurn {
  model: string;
  stream: boolean;
  /** Text of the last user message (empty when the last turn holds only tool results). */
  lastUserText: string;
  /** Tool results of the last user turn, in order. */
  toolResults: string[];
  /** Names of the declared tools (the first one is used for scripted calls). */
  toolNames: string[];
  /** Names of declared freeform (custom) tools, called with raw text (`args.input`), where the protocol has them. */
  freeformTools?: string[];
  /** The JSON Schema of a requested structured output, if any (answered with matching JSON). */
  schema?: unknown;
}

/** One scripted tool call. */
export interface MockCall {
  id: string;
  name: string;
  args: Record<string, string>;
}

/** The scripted answer the protocol module renders. */
export type MockPlan =
  | { kind: 'error'; status: number; message: string; retryAfter?: number }
  | {
      kind: 'answer';
      thinking?: { text: string; signature: string };
      text?: string;
      calls: MockCall[];
      usage: { input: number; output: number; reasoning: number };
    };

/** A deterministic opaque signature: the mock checks replayed state against it. */
export function mockSignature(scope: string, value: string): string {
  return createHash('sha256').update(`${scope}\u0000${value}`).digest('base64url').slice(0, 32);
}

const THINKING_TEXT = 'The user wants a scripted answer; I will follow the script.';

/** Options of the scripted answers. */
export interface ScriptOptions {
  /** Folder that relative paths in "read <file>" prompts resolve against (real agent clients want absolute paths). */
  workdir?: string;
}

/**
 * File-reading tools of real agent clients, with the argument shape each declares. Only shapes
 * checked against the client are listed: Claude Code's `Read` and Gemini CLI's `read_file` take
 * a `file_path`; Codex (gpt-5.5 tool set) runs `exec_command` with a `cmd`, and in code mode (its
 * default model) JavaScript through `functions.exec`.
 */
const FILE_READERS: Readonly<Record<string, (path: string) => Record<string, string>>> = {
  Read: (path) => ({ file_path: path }),
  read_file: (path) => ({ file_path: path }),
  exec_command: (path) => ({ cmd: `cat ${path}` }),
  // Codex's code mode: the freeform `exec` tool of its `functions` namespace runs JavaScript that
  // calls nested tools; through a function-only upstream it is a function taking `{ input }`.
  'functions.exec': codeModeRead,
  functions_exec: codeModeRead,
};

function codeModeRead(path: string): Record<string, string> {
  return { input: `const result = await tools.exec_command({ cmd: ${JSON.stringify(`cat ${path}`)} });\ntext(result);` };
}

/**
 * Picks the scripted answer from the last user message:
 * `read <file>` with a known file-reading tool declared -> one call reading it (an agent loop);
 * `error 429|500|503|529` -> that status; after tool results -> a final text quoting them;
 * `parallel` -> two calls; `tool` / `weather` -> one call (when tools are declared);
 * `think` -> thinking with a signature first; otherwise a text echo.
 */
export function planAnswer(protocol: string, turn: MockTurn, options: ScriptOptions = {}): MockPlan {
  const text = turn.lastUserText;
  const errorMatch = /\berror (\d{3})\b/i.exec(text);
  if (errorMatch && turn.toolResults.length === 0) {
    const status = Number(errorMatch[1]);
    return { kind: 'error', status, message: `scripted ${status}`, ...(status === 429 ? { retryAfter: 1 } : {}) };
  }
  const input = Math.max(1, Math.ceil((text.length + turn.toolResults.join('').length) / 4));
  const thinking = /\bthink/i.test(text) ? { text: THINKING_TEXT, signature: mockSignature(protocol, THINKING_TEXT) } : undefined;
  const reasoning = thinking ? 12 : 0;
  if (turn.toolResults.length > 0) {
    const answer = `Tool said: ${turn.toolResults.join(' | ')}`;
    return { kind: 'answer', text: answer, calls: [], usage: { input, output: words(answer), reasoning: 0 } };
  }
  if (turn.schema !== undefined) {
    // Structured output (e.g. Gemini CLI's routing classifier): JSON that fits the schema.
    const answer = JSON.stringify(sampleOf(turn.schema));
    return { kind: 'answer', text: answer, calls: [], usage: { input, output: words(answer), reasoning: 0 } };
  }
  const reader = turn.toolNames.find((name) => Object.hasOwn(FILE_READERS, name));
  const read = /\bread ([\w./-]+\.\w+)/i.exec(text);
  if (reader && read) {
    const path = options.workdir && !read[1]!.startsWith('/') ? `${options.workdir.replace(/\/$/, '')}/${read[1]}` : read[1]!;
    const calls = [{ id: 'call_mock_read', name: reader, args: FILE_READERS[reader]!(path) }];
    return { kind: 'answer', thinking, calls, usage: { input, output: 10 + reasoning, reasoning } };
  }
  const tool = turn.toolNames[0];
  if (tool && /\bparallel\b/i.test(text)) {
    const calls = [
      { id: 'call_mock_1', name: tool, args: { city: 'Paris' } },
      { id: 'call_mock_2', name: tool, args: { city: 'Tokyo' } },
    ];
    return { kind: 'answer', thinking, calls, usage: { input, output: 20 + reasoning, reasoning } };
  }
  if (tool && /\b(tool|weather)\b/i.test(text)) {
    const calls = [{ id: 'call_mock_1', name: tool, args: { city: 'Paris' } }];
    return { kind: 'answer', thinking, calls, usage: { input, output: 10 + reasoning, reasoning } };
  }
  const answer = `Mock ${protocol} says: ${text || 'hello'}`;
  return { kind: 'answer', thinking, text: answer, calls: [], usage: { input, output: words(answer) + reasoning, reasoning } };
}

/** The smallest value of a JSON Schema (OpenAPI's uppercase types too): first enum value, 1, "mock", ... */
export function sampleOf(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return null;
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  const type = String(Array.isArray(node.type) ? node.type[0] : (node.type ?? (node.properties ? 'object' : 'string'))).toLowerCase();
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = (node.properties ?? {}) as Record<string, unknown>;
      for (const key of Object.keys(properties)) out[key] = sampleOf(properties[key]);
      return out;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return typeof node.minimum === 'number' ? node.minimum : 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return 'mock';
  }
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Splits text into a few deltas, the way upstreams stream it. */
export function chunksOf(text: string): string[] {
  const parts = text.match(/\S+\s*/g) ?? [text];
  return parts.length > 0 ? parts : [text];
}

/** Thrown by a protocol module's validation: becomes a 400 in that protocol's error shape. */
export class MockRejection extends Error {}

/** Throws a {@link MockRejection} unless `condition` holds. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new MockRejection(message);
}

/** Narrows to a plain object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Encodes one SSE event. */
export function sse(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** A Response streaming the given SSE strings. */
export function sseResponse(events: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const event of events) controller.enqueue(encoder.encode(event));
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
}

/** A JSON Response. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}
