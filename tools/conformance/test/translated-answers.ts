// How the cross-protocol tests drive a bridge: one small request from each client protocol, the
// client's answer to an upstream's JSON answer or to its stream, and the warnings each reported
// (as `code@path`), and a request translated alone. Shared by the cross-protocol tests.
import type { Codec, LlmWarning } from '@llm/core';
import { claude } from '@llm/claude';
import { gemini } from '@llm/gemini';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { bridge } from '@llm/router';

/** The smallest request each client protocol sends, for the bridge to translate before an answer. */
const clientRequests = new Map<Codec, unknown>([
  [claude, { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'q' }] }],
  [openaiChat, { model: 'm', messages: [{ role: 'user', content: 'q' }] }],
  [openaiResponses, { model: 'm', input: 'q' }],
  [gemini, { contents: [{ role: 'user', parts: [{ text: 'q' }] }] }],
]);

/** A bridge from `client` to `upstream` that has translated the client's request (streamed or not), and its warnings. */
export function via(client: Codec, upstream: Codec, stream: boolean) {
  const warnings: string[] = [];
  const translator = bridge({ client, upstream, warn: (warning) => warnings.push(`${warning.code}@${warning.path}`) });
  const body = clientRequests.get(client);
  translator.request(stream && client !== gemini ? { ...(body as object), stream: true } : body, client === gemini ? { model: 'm', stream } : {});
  return { translator, warnings };
}

/** The client answer to a JSON upstream answer, and the warnings. */
export function answer(client: Codec, upstream: Codec, upstreamAnswer: unknown): { body: Record<string, unknown>; warnings: string[] } {
  const { translator, warnings } = via(client, upstream, false);
  return { body: translator.response(structuredClone(upstreamAnswer)) as Record<string, unknown>, warnings };
}

/** The client's SSE data payloads (parsed) for the upstream streaming the same answer, and the warnings. */
export async function streamed(client: Codec, upstream: Codec, upstreamAnswer: unknown): Promise<{ events: Record<string, unknown>[]; warnings: string[] }> {
  return streamedSse(client, upstream, bridge({ client: upstream, upstream }).responseToStream(structuredClone(upstreamAnswer)));
}

/** The client's SSE data payloads (parsed) for an upstream stream as it is on the wire, and the warnings. */
export async function streamedSse(
  client: Codec,
  upstream: Codec,
  upstreamSse: ReadableStream<Uint8Array>,
): Promise<{ events: Record<string, unknown>[]; warnings: string[] }> {
  const { translator, warnings } = via(client, upstream, true);
  const text = await new Response(translator.stream(upstreamSse)).text();
  const events = text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
  return { events, warnings };
}

/** A request translated from `client` to `upstream` (the body is not touched), and every warning. */
export function translatedRequest(
  client: Codec,
  upstream: Codec,
  body: unknown,
  options: object = {},
): { body: Record<string, unknown>; warnings: LlmWarning[] } {
  const warnings: LlmWarning[] = [];
  const translator = bridge({ client, upstream, warn: (warning) => warnings.push(warning) });
  return { body: translator.request(structuredClone(body), options).body as Record<string, unknown>, warnings };
}
