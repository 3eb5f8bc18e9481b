// Bedrock Converse / ConverseStream as the gateway must call them: `/model/{modelId}/converse`
// and `/converse-stream`, a valid SigV4 signature (checked by sigv4-check.ts), a body with only
// the members of the AWS SDK's `ConverseRequest` (no `modelId`: it is in the URL) and messages
// whose content blocks hold one member each. The answer comes from the Claude protocol mock,
// translated by the codecs; streams go out as event-stream messages (`:event-type` events,
// `:exception-type` exceptions) written 7 bytes at a time; errors in Bedrock's shape.
import type { ConverseRequest } from '@aws-sdk/client-bedrock-runtime';
import { bedrockConverse } from '@llm/bedrock-converse';
import { claude } from '@llm/claude';
import type { Codec } from '@llm/core';
import { bridge } from '@llm/router';
import { BEDROCK_ERROR, bedrockError, inPieces } from './bedrock-mock.js';
import { eventStreamMessage } from './eventstream-frames.js';
import { callProtocolMock } from './protocol-mock.js';
import { type SigV4Expectation, sigV4Problem } from './sigv4-check.js';
import type { MockHeaders } from './token-issuer.js';

export interface SeenConverseCall {
  path: string;
  body: Record<string, unknown>;
}

/** Every body member of `ConverseRequest` (the compiler checks the list against the SDK's type). */
const MEMBERS = [
  'messages',
  'system',
  'inferenceConfig',
  'toolConfig',
  'guardrailConfig',
  'additionalModelRequestFields',
  'promptVariables',
  'additionalModelResponseFieldPaths',
  'requestMetadata',
  'performanceConfig',
  'serviceTier',
  'outputConfig',
] as const satisfies readonly Exclude<keyof ConverseRequest, 'modelId'>[];
type Missing = Exclude<Exclude<keyof ConverseRequest, 'modelId'>, (typeof MEMBERS)[number]>;
const allMembersListed: [Missing] extends [never] ? true : Missing = true;
void allMembersListed;

/** Requests Converse -> Claude, answers Claude -> Converse: a Converse client of a Claude upstream. */
const converseOverClaude = bridge({ client: bedrockConverse as Codec, upstream: claude as Codec });

/** What the real service refuses in a Converse body, or undefined. */
function bodyProblem(body: Record<string, unknown>): string | undefined {
  for (const key of Object.keys(body)) if (!(MEMBERS as readonly string[]).includes(key)) return `extraneous key [${key}] is not permitted`;
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: at least one message is required';
  for (const message of body.messages as { role?: unknown; content?: unknown }[]) {
    if (message.role !== 'user' && message.role !== 'assistant') return `messages: role ${String(message.role)}`;
    if (!Array.isArray(message.content)) return 'messages: content must be a list';
    for (const block of message.content as Record<string, unknown>[])
      if (Object.keys(block).length !== 1) return `content block with members ${Object.keys(block).join(', ')}: exactly one is allowed`;
  }
  return undefined;
}

/** Converse SSE (the codec's writing) as event-stream messages, each event or exception its own message. */
function asEventStream(sse: string): Uint8Array[] {
  const frames: Uint8Array[] = [];
  for (const block of sse.split('\n\n')) {
    const lines = block.split('\n');
    const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
    const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
    if (!event || data === undefined) continue;
    const payload = new TextEncoder().encode(data);
    const exception = event.endsWith('Exception');
    const headers: Record<string, string> = exception
      ? { ':exception-type': event, ':content-type': 'application/json', ':message-type': 'exception' }
      : { ':event-type': event, ':content-type': 'application/json', ':message-type': 'event' };
    frames.push(eventStreamMessage(headers, payload));
    if (exception) break;
  }
  return frames;
}

export function converseHandler(signing: SigV4Expectation, seen: SeenConverseCall[]): (url: URL, headers: MockHeaders, text: string) => Promise<Response> {
  return async (url, headers, text) => {
    const problem = sigV4Problem('POST', url.pathname, url.searchParams, headers, Buffer.from(text), signing);
    if (problem)
      return bedrockError(
        problem === 'unknown access key' ? 'UnrecognizedClientException' : 'InvalidSignatureException',
        403,
        `signature check failed: ${problem}`,
      );
    const match = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec(url.pathname);
    if (!match) return bedrockError('UnknownOperationException', 404, 'unknown operation');
    const model = decodeURIComponent(match[1] as string);
    const stream = match[2] === 'converse-stream';
    const body = JSON.parse(text) as Record<string, unknown>;
    seen.push({ path: url.pathname, body });
    const refused = bodyProblem(body);
    if (refused) return bedrockError('ValidationException', 400, `Malformed input request: ${refused}`);
    if (headers.get('accept') !== (stream ? 'application/vnd.amazon.eventstream' : 'application/json'))
      return bedrockError('ValidationException', 400, 'accept');
    // The request as a Claude client's: the Converse codec decodes it, the Claude codec writes it.
    const asClaude = converseOverClaude.request(body, { model, upstreamModel: model, stream });
    const answer = await callProtocolMock('claude', '/v1/messages', { ...(asClaude.body as object), stream });
    if (answer.status !== 200) {
      const error = ((await answer.json()) as { error?: { type?: string; message?: string } }).error;
      const [name, status] = BEDROCK_ERROR[error?.type ?? ''] ?? ['InternalServerException', 500];
      return bedrockError(name, status, error?.message ?? 'error');
    }
    if (!stream) return Response.json(converseOverClaude.response(await answer.json()));
    const sse = await new Response(converseOverClaude.stream(answer.body as ReadableStream<Uint8Array>)).text();
    return new Response(inPieces(asEventStream(sse), 7), { headers: { 'content-type': 'application/vnd.amazon.eventstream' } });
  };
}
