import { LlmError, type Codec, type ProtocolId } from '@llm/core';
import type { Outcome } from './run.js';

/**
 * A loss the matrix expects: a scenario detail that one protocol has no field for. It applies to
 * every pair with that protocol on either side; the warning is reported by the first side that
 * meets it (the client's own rendering when the client protocol lacks it, the bridge otherwise),
 * so each cell expects exactly one warning per loss, never a silent drop.
 */
export interface ExpectedLoss {
  scenario: string;
  /** The protocols lacking the field, with the warning (`code@path`) each one reports. */
  lost: Partial<Record<ProtocolId, string | null>>;
  /** The loss shows only when the protocol is the client's (an upstream of it loses nothing). */
  clientOnly?: true;
  /** Why, in one line (printed in the table legend). */
  reason: string;
  /** What the loss changes in the expected outcome. */
  apply: (expected: Outcome, client: Codec, upstream: Codec) => void;
}

export const EXPECTED_LOSSES: readonly ExpectedLoss[] = [
  {
    scenario: 'tool-error',
    lost: {
      'openai-chat': 'dropped-field@messages[2].content[0]',
      'openai-responses': 'dropped-field@messages[2].content[0].isError',
    },
    reason: 'OpenAI tool messages / function_call_output have no error flag; the output text stays',
    apply: (expected) => {
      for (const turn of expected.request.turns) turn.results = turn.results.map((result) => result.replace(' error: ', ': '));
    },
  },
  {
    scenario: 'stop-sequence',
    lost: { 'openai-responses': 'dropped-field@stop' },
    reason: 'the Responses API has no stop sequences',
    apply: (expected) => {
      delete expected.request.stop;
    },
  },
  {
    scenario: 'refusal',
    // No warning: the refusal text itself crosses in message.refusal; only the reason word differs.
    lost: { 'openai-chat': null },
    clientOnly: true,
    reason: "Chat has no 'refusal' finish reason: finish_reason is 'stop' next to message.refusal",
    apply: (expected) => {
      if (expected.response) expected.response.finish = 'stop';
    },
  },
  {
    scenario: 'error-529',
    // No warning: an error answer is not a translation of content, its kind is all there is.
    lost: { 'openai-responses': null },
    reason: "Responses has no 'overloaded' error type: 503 server_error reads as a server error",
    apply: (expected, client, upstream) => {
      // A Responses client reads its own 503 as a server error already (the native baseline);
      // behind a Responses upstream, another client gets what its protocol says for a server error.
      if (upstream.id !== 'openai-responses' || client.id === upstream.id || !expected.error) return;
      const encoded = client.error.encode(new LlmError({ kind: 'server', message: 'server error' }));
      expected.error = { kind: client.error.decode(encoded.status, encoded.body, new Headers()).kind, status: encoded.status };
    },
  },
];

/** The losses of one cell and the warnings they must produce. */
export function lossesFor(scenario: string, client: ProtocolId, upstream: ProtocolId): { losses: ExpectedLoss[]; warnings: string[] } {
  const losses: ExpectedLoss[] = [];
  const warnings: string[] = [];
  for (const loss of EXPECTED_LOSSES) {
    if (loss.scenario !== scenario) continue;
    const side = client in loss.lost ? client : upstream in loss.lost && !loss.clientOnly ? upstream : undefined;
    if (side === undefined) continue;
    losses.push(loss);
    const warning = loss.lost[side];
    if (warning) warnings.push(warning);
  }
  return { losses, warnings };
}
