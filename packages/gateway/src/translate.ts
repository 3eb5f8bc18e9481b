import { type Codec, type LlmWarning, type ProtocolId, type SseEvent, decodeSse, formatSseEvent } from '@llm/core';

/** What `translate` converts. */
export type TranslateKind = 'request' | 'response' | 'stream';

const EXPORTS: Record<ProtocolId, [string, string]> = {
  'openai-chat': ['@llm/openai-chat', 'openaiChat'],
  'openai-responses': ['@llm/openai-responses', 'openaiResponses'],
  claude: ['@llm/claude', 'claude'],
  gemini: ['@llm/gemini', 'gemini'],
};

/** Loads a protocol's codec, or throws a one-line error while that package does not export it yet. */
export async function loadCodec(protocol: ProtocolId): Promise<Codec> {
  const [specifier, name] = EXPORTS[protocol];
  let mod: Record<string, unknown>;
  switch (protocol) {
    case 'openai-chat':
      mod = (await import('@llm/openai-chat')) as Record<string, unknown>;
      break;
    case 'openai-responses':
      mod = (await import('@llm/openai-responses')) as Record<string, unknown>;
      break;
    case 'claude':
      mod = (await import('@llm/claude')) as Record<string, unknown>;
      break;
    case 'gemini':
      mod = (await import('@llm/gemini')) as Record<string, unknown>;
      break;
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
  const codec = mod[name];
  if (typeof codec !== 'object' || codec === null) throw new Error(`${specifier} does not export the ${name} codec yet`);
  return codec as Codec;
}

/** Options of {@link translate}. */
export interface TranslateOptions {
  from: ProtocolId;
  to: ProtocolId;
  kind: TranslateKind;
  /** Model for protocols that carry it outside the body (Gemini), and the target's model. */
  model?: string;
  warn?(warning: LlmWarning): void;
}

/** Translates one JSON body or SSE capture between protocols, offline. */
export async function translate(input: string, options: TranslateOptions): Promise<string> {
  const [from, to] = await Promise.all([loadCodec(options.from), loadCodec(options.to)]);
  const context = { warn: options.warn, model: options.model };
  switch (options.kind) {
    case 'request': {
      const request = from.request.decode(JSON.parse(input), context);
      if (options.model) request.model = options.model;
      return `${JSON.stringify(to.request.encode(request, context), null, 2)}\n`;
    }
    case 'response':
      return `${JSON.stringify(to.response.encode(from.response.decode(JSON.parse(input), context), context), null, 2)}\n`;
    case 'stream': {
      const bytes = new Blob([input]).stream() as ReadableStream<Uint8Array>;
      const events = decodeSse(bytes).pipeThrough(from.stream.decode(context)).pipeThrough(to.stream.encode(context));
      let out = '';
      for await (const event of events as unknown as AsyncIterable<SseEvent>) out += formatSseEvent(event);
      return out;
    }
    default: {
      const unreachable: never = options.kind;
      return unreachable;
    }
  }
}

/** True when all four codec packages export their codec (the router needs them to translate). */
export async function codecsReady(): Promise<boolean> {
  const protocols: ProtocolId[] = ['openai-chat', 'openai-responses', 'claude', 'gemini'];
  return Promise.all(protocols.map((protocol) => loadCodec(protocol))).then(
    () => true,
    () => false,
  );
}
