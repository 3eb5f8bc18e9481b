import { claude } from '@llm/claude';
import type { Codec, LlmWarning, ProtocolId } from '@llm/core';
import { gemini } from '@llm/gemini';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { bridge } from '@llm/router';
import { bedrockConverse } from '@llm/bedrock-converse';

/** What `translate` converts. */
export type TranslateKind = 'request' | 'response' | 'stream';

const CODECS: Readonly<Record<ProtocolId, Codec>> = {
  'openai-chat': openaiChat as Codec,
  'openai-responses': openaiResponses as Codec,
  claude: claude as Codec,
  gemini: gemini as Codec,
  'bedrock-converse': bedrockConverse as Codec,
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

/**
 * Translates one JSON body or SSE capture between protocols, offline, exactly as the gateway
 * would (the router's bridge, with its fixes for the target): a request goes from a `from`
 * client to a `to` upstream; a response or stream comes from a `from` upstream to a `to` client.
 */
export async function translate(input: string, options: TranslateOptions): Promise<string> {
  const kind = options.kind;
  const forRequest = kind === 'request';
  const via = bridge({
    client: codecOf(forRequest ? options.from : options.to),
    upstream: codecOf(forRequest ? options.to : options.from),
    warn: options.warn,
  });
  switch (kind) {
    case 'request': {
      const out = via.request(JSON.parse(input), { model: options.model, upstreamModel: options.model });
      return `${JSON.stringify(out.body, null, 2)}\n`;
    }
    case 'response':
      return `${JSON.stringify(via.response(JSON.parse(input)), null, 2)}\n`;
    case 'stream': {
      const bytes = new Blob([input]).stream() as ReadableStream<Uint8Array>;
      return new Response(via.stream(bytes)).text();
    }
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}
