import type { ServedProtocol } from '../served-protocols.js';
import type { RouterRequest } from '@llm/router';
import { claudeError, readClaudeTurn, renderClaude } from './claude.js';
import { geminiError, readGeminiTurn, renderGemini } from './gemini.js';
import { openaiError, readChatTurn, renderChat } from './openai-chat.js';
import { readResponsesTurn, renderResponses } from './openai-responses.js';
import { failMidway, wantsMidwayFailure } from './midway-failure.js';
import { type MockPlan, MockRejection, type MockTurn, planAnswer, type ScriptOptions } from './script.js';

type ErrorBuilder = (status: number, message: string, retryAfter?: number) => Response;

/** The base URL to configure for a mock of `protocol` served at `origin` (SDK conventions). */
export function mockBaseUrl(protocol: ServedProtocol, origin: string): string {
  return protocol === 'openai-chat' || protocol === 'openai-responses' ? `${origin}/v1` : origin;
}

/**
 * The deterministic mock upstream for one protocol as a fetch handler: validates each request
 * like the real API (400 in the protocol's error shape) and answers from the script
 * ({@link planAnswer}).
 */
export function createMockHandler(protocol: ServedProtocol, options: ScriptOptions = {}): (request: RouterRequest) => Promise<Response> {
  const fail = errorBuilder(protocol);
  return async (request) => {
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname === '/health') return new Response('ok');
    const route = matchRoute(protocol, request.method, url.pathname);
    if (!route) return fail(404, `mock ${protocol}: no route for ${request.method} ${url.pathname}`);
    let body: unknown;
    try {
      body = JSON.parse(await request.text());
    } catch {
      return fail(400, 'request body is not valid JSON');
    }
    let turn: MockTurn;
    try {
      turn = readTurn(protocol, body, route);
      turn.schema = responseSchemaOf(protocol, body);
    } catch (error) {
      if (error instanceof MockRejection) return fail(400, error.message);
      throw error;
    }
    if (route.countTokens) {
      const tokens = Math.max(1, Math.ceil(JSON.stringify(body).length / 4));
      return protocol === 'gemini' ? Response.json({ totalTokens: tokens }) : Response.json({ input_tokens: tokens });
    }
    const plan = planAnswer(protocol, turn, options);
    if (plan.kind === 'error') return fail(plan.status, plan.message, plan.retryAfter);
    const rendered = render(protocol, plan, turn, body, url);
    return turn.stream && wantsMidwayFailure(turn.lastUserText) ? failMidway(protocol, rendered) : rendered;
  };
}

/** The scripted answer in the protocol's wire shape. */
function render(protocol: ServedProtocol, plan: Exclude<MockPlan, { kind: 'error' }>, turn: MockTurn, body: unknown, url: URL): Response {
  switch (protocol) {
    case 'claude':
      return renderClaude(plan, turn);
    case 'gemini':
      return renderGemini(plan, turn, url.searchParams.get('alt') === 'sse');
    case 'openai-chat': {
      const options = (body as { stream_options?: { include_usage?: boolean } }).stream_options;
      return renderChat(plan, turn, options?.include_usage === true);
    }
    case 'openai-responses':
      return renderResponses(plan, turn);
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}

interface Route {
  model?: string;
  stream?: boolean;
  /** Claude `count_tokens` / Gemini `countTokens`: validated like generation, answered with a count. */
  countTokens?: boolean;
}

function matchRoute(protocol: ServedProtocol, method: string, path: string): Route | undefined {
  if (method !== 'POST') return undefined;
  switch (protocol) {
    case 'openai-chat':
      return path === '/v1/chat/completions' ? {} : undefined;
    case 'openai-responses':
      return path === '/v1/responses' ? {} : undefined;
    case 'claude':
      if (path === '/v1/messages/count_tokens') return { countTokens: true };
      return path === '/v1/messages' ? {} : undefined;
    case 'gemini': {
      const match = /^\/v1(?:beta)?\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(path);
      if (!match) return undefined;
      return { model: decodeURIComponent(match[1] ?? ''), stream: match[2] === 'streamGenerateContent', countTokens: match[2] === 'countTokens' };
    }
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}

function readTurn(protocol: ServedProtocol, body: unknown, route: Route): MockTurn {
  switch (protocol) {
    case 'claude':
      return readClaudeTurn(body, route.countTokens);
    case 'gemini':
      return readGeminiTurn(unwrapCountTokens(body, route), route.model ?? '', route.stream === true);
    case 'openai-chat':
      return readChatTurn(body);
    case 'openai-responses':
      return readResponsesTurn(body);
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}

function errorBuilder(protocol: ServedProtocol): ErrorBuilder {
  switch (protocol) {
    case 'claude':
      return claudeError;
    case 'gemini':
      return geminiError;
    case 'openai-chat':
    case 'openai-responses':
      return openaiError;
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}

/** Gemini `countTokens` takes `{contents}` or `{generateContentRequest: {...}}`. */
function unwrapCountTokens(body: unknown, route: Route): unknown {
  if (route.countTokens && typeof body === 'object' && body !== null && 'generateContentRequest' in body) {
    return (body as { generateContentRequest: unknown }).generateContentRequest;
  }
  return body;
}

/** The JSON Schema a request asks its answer to follow, in each protocol's field. */
function responseSchemaOf(protocol: ServedProtocol, body: unknown): unknown {
  // biome-ignore lint/suspicious/noExplicitAny: reads four protocols' shapes by field name; each branch checks the value it returns
  const wire = (typeof body === 'object' && body !== null ? body : {}) as Record<string, any>;
  switch (protocol) {
    case 'openai-chat':
      return wire.response_format?.type === 'json_schema' ? wire.response_format.json_schema?.schema : undefined;
    case 'openai-responses':
      return wire.text?.format?.type === 'json_schema' ? wire.text.format.schema : undefined;
    case 'claude':
      return wire.output_config?.format?.type === 'json_schema' ? wire.output_config.format.schema : undefined;
    case 'gemini': {
      const config = wire.generationConfig ?? wire.generation_config;
      return config?.responseJsonSchema ?? config?.responseSchema ?? config?.response_json_schema ?? config?.response_schema;
    }
  }
}
