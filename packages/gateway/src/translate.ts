import { claude } from '@llm/claude';
import { type Codec, type LlmWarning, type ProtocolId, type SseEvent, decodeSse, formatSseEvent } from '@llm/core';
import { gemini } from '@llm/gemini';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';

/** What `translate` converts. */
export type TranslateKind = 'request' | 'response' | 'stream';

const CODECS: Readonly<Record<ProtocolId, Codec>> = {
  'openai-chat': openaiChat as Codec,
  'openai-responses': openaiResponses as Codec,
  claude: claude as Codec,
  gemini: gemini as Codec,
};

/** A protocol's codec. */
export function codecOf(protocol: ProtocolId): Codec {
  return CODECS[protocol];
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
  const from = codecOf(options.from);
  const to = codecOf(options.to);
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
