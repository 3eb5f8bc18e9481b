// Request bodies for the load runs. The OpenAI Chat and Anthropic bodies come from the peers'
// payloads.mjs (so every target gets byte-identical input); the Responses body carries the same
// conversation in Responses shape (instructions, input messages, flat function tools).
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

/** Loads ../shared/peers/payloads.mjs from `peersScripts`. */
export async function loadPeerPayloads(peersScripts) {
  return import(pathToFileURL(join(peersScripts, 'payloads.mjs')).href);
}

/** Bytes of conversation history that give a ~2 KB and a ~50 KB OpenAI Chat request. */
export const SIZES = { '2k': 1000, '50k': 48500 };

/** An OpenAI Responses request with the same content as `openaiChatRequest`. */
export function responsesRequest(peer, { stream = false, historyBytes = SIZES['2k'], model } = {}) {
  const chat = peer.openaiChatRequest({ historyBytes, model });
  const [system, ...rest] = chat.messages;
  const body = {
    model,
    instructions: system.content,
    input: rest.map((m) => ({ role: m.role, content: m.content })),
    tools: chat.tools.map((t) => ({
      type: 'function',
      name: t.function.name,
      description: t.function.description,
      parameters: t.function.parameters,
      strict: false,
    })),
    max_output_tokens: chat.max_tokens,
    temperature: chat.temperature,
    store: false,
  };
  if (stream) body.stream = true;
  return body;
}

/** Builds the body a client of `client` protocol sends, for a given size and stream flag. */
export function clientBody(peer, client, { model, stream, size }) {
  const historyBytes = SIZES[size];
  switch (client) {
    case 'openai-chat':
      return peer.openaiChatRequest({ model, stream, historyBytes });
    case 'openai-responses':
      return responsesRequest(peer, { model, stream, historyBytes });
    case 'claude':
      return peer.anthropicRequest({ model, stream, historyBytes });
    default:
      throw new Error(`no body for client ${client}`);
  }
}

/** The answer text a client got back, from a JSON body or an SSE capture, per client protocol. */
export function answerText(client, text, stream) {
  if (!stream) {
    let j;
    try {
      j = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (client === 'openai-chat') return j.choices?.[0]?.message?.content;
    if (client === 'openai-responses')
      return j.output
        ?.flatMap((i) => i.content ?? [])
        .filter((p) => p.type === 'output_text')
        .map((p) => p.text)
        .join('');
    if (client === 'claude')
      return j.content
        ?.filter((b) => b.type === 'text')
        .map((b) => b.text)
        .join('');
    return undefined;
  }
  let out = '';
  for (const frame of text.split(/\r?\n\r?\n/)) {
    const line = frame.split(/\r?\n/).find((l) => l.startsWith('data:'));
    if (!line) continue;
    const data = line.slice(5).trim();
    if (data === '[DONE]') continue;
    let ev;
    try {
      ev = JSON.parse(data);
    } catch {
      continue;
    }
    if (client === 'openai-chat') out += ev.choices?.[0]?.delta?.content ?? '';
    else if (client === 'openai-responses') out += ev.type === 'response.output_text.delta' ? ev.delta : '';
    else if (ev.type === 'content_block_delta' && ev.delta?.type === 'text_delta') out += ev.delta.text;
  }
  return out;
}
