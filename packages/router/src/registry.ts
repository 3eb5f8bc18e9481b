import type { Codec, ProtocolId } from '@llm/core';
import * as conversePackage from '@llm/bedrock-converse';
import * as claudePackage from '@llm/claude';
import * as geminiPackage from '@llm/gemini';
import * as chatPackage from '@llm/openai-chat';
import * as responsesPackage from '@llm/openai-responses';

/** A codec per protocol; a missing one makes its endpoints answer 404. */
export type CodecRegistry = Partial<Record<ProtocolId, Codec>>;

function exported(module: object, name: string): Codec | undefined {
  const value = (module as Record<string, unknown>)[name];
  return typeof value === 'object' && value !== null ? (value as Codec) : undefined;
}

/** The codec packages' exports (`openaiChat`, `openaiResponses`, `claude`, `gemini`, `bedrockConverse`). */
export function defaultCodecs(): CodecRegistry {
  const registry: CodecRegistry = {};
  const entries: Array<[ProtocolId, Codec | undefined]> = [
    ['openai-chat', exported(chatPackage, 'openaiChat')],
    ['openai-responses', exported(responsesPackage, 'openaiResponses')],
    ['claude', exported(claudePackage, 'claude')],
    ['gemini', exported(geminiPackage, 'gemini')],
    ['bedrock-converse', exported(conversePackage, 'bedrockConverse')],
  ];
  for (const [id, codec] of entries) if (codec) registry[id] = codec;
  return registry;
}
