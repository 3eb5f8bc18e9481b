import type { Codec, ProtocolId } from '@llm/core';
import { defaultCodecs } from '@llm/router';
import { runCell, type CellResult, type Mode } from './run.js';
import { scenarios } from './scenarios.js';

/** The five protocols: every client/upstream pair of them runs (25 pairs). */
export const MATRIX_PROTOCOLS: readonly ProtocolId[] = ['openai-chat', 'openai-responses', 'claude', 'gemini', 'bedrock-converse'];

export const MODES: readonly Mode[] = ['json', 'stream'];

/** Every (client, upstream) pair of the enabled protocols. */
export function pairs(protocols: readonly ProtocolId[] = MATRIX_PROTOCOLS): Array<[Codec, Codec]> {
  const codecs = defaultCodecs();
  const available = protocols.flatMap((id) => (codecs[id] ? [codecs[id] as Codec] : []));
  return available.flatMap((client) => available.map((upstream): [Codec, Codec] => [client, upstream]));
}

/** Runs the whole matrix. */
export async function runMatrix(protocols?: readonly ProtocolId[]): Promise<CellResult[]> {
  const results: CellResult[] = [];
  for (const [client, upstream] of pairs(protocols)) {
    for (const scenario of scenarios) for (const mode of MODES) results.push(await runCell(scenario, client, upstream, mode));
  }
  return results;
}
