import { LlmError, type Codec, type ProtocolId } from '@llm/core';
import { REFUSAL_FALLBACK_TEXT } from '@llm/core';
import type { ResponseMeaning } from './meaning.js';
import type { Mode, Outcome } from './run.js';

/**
 * A loss the matrix expects: a scenario detail that one protocol has no field for. By default it
 * applies to every pair with that protocol on either side; the warning is reported by the first
 * side that meets it (the client's own rendering when the client protocol lacks it, the bridge
 * otherwise), so each cell expects exactly one warning per loss, never a silent drop.
 */
export interface ExpectedLoss {
  scenario: string | string[];
  /** The protocols lacking the field, with the warning (`code@path`) each one reports, or null (none). */
  lost: Partial<Record<ProtocolId, string | null>>;
  /** Narrows the loss to some sides or modes (`client` only, one pair, streaming only). */
  when?: { side?: 'client' | 'upstream'; client?: ProtocolId | ProtocolId[]; upstream?: ProtocolId | ProtocolId[]; mode?: Mode };
  /** Why, in one line (printed in the table legend). */
  reason: string;
  /** What the loss changes in the expected outcome (nothing when only a warning is expected). */
  apply?: (expected: Outcome, client: Codec, upstream: Codec, mode: Mode) => void;
}

/** Google's documented placeholder for a function call without a thought signature. */
const GEMINI_SKIP_SIGNATURE = 'skip_thought_signature_validator';

/**
 * What a protocol's answer says of a refusal or a filtered answer, once written and read back
 * (the meaning of a response after one protocol's encode and decode):
 * - Chat has no refusal finish: `refusal` is `content_filter`, and a refusal with no text at all
 *   gets the codec's fallback `refusal` string;
 * - Responses says refusal with a refusal part in a completed answer: a `refusal` finish without
 *   one gets core's `REFUSAL_FALLBACK_TEXT` as a refusal part (`content_filter` stays `incomplete`);
 * - Claude has no refusal block (the text is plain text) and no filter stop: `refusal` for both;
 * - Gemini has neither a refusal block nor a refusal finish: safety (`content_filter`) for both;
 * - Converse likewise: `content_filtered` for both, the text plain text.
 */
function refusalAsSeen(protocol: ProtocolId, response: ResponseMeaning): void {
  switch (protocol) {
    case 'openai-chat':
      if (response.finish !== 'refusal') return;
      response.finish = 'content_filter';
      if (response.text === '' && response.refusal === '') response.refusal = REFUSAL_FALLBACK_TEXT;
      return;
    case 'openai-responses':
      if (response.finish === 'refusal' && response.refusal === '') response.refusal = REFUSAL_FALLBACK_TEXT;
      return;
    case 'claude':
    case 'gemini':
    case 'bedrock-converse':
      response.text += response.refusal;
      response.refusal = '';
      if (response.finish === 'refusal' || response.finish === 'content_filter') response.finish = protocol === 'claude' ? 'refusal' : 'content_filter';
      return;
    default:
      return;
  }
}

/** A refusal or filter crossing a pair: what the upstream's answer says, then what the client's says of that. */
function refusalAcross(expected: Outcome, client: Codec, upstream: Codec): void {
  if (!expected.response) return;
  refusalAsSeen(upstream.id, expected.response);
  refusalAsSeen(client.id, expected.response);
}

/** What a client sees of an upstream server error. */
function serverError(client: Codec): NonNullable<Outcome['error']> {
  const encoded = client.error.encode(new LlmError({ kind: 'server', message: 'server error' }));
  return { kind: client.error.decode(encoded.status, encoded.body, new Headers()).kind, status: encoded.status };
}

export const EXPECTED_LOSSES: readonly ExpectedLoss[] = [
  {
    scenario: 'image',
    lost: {
      claude: 'dropped-field@messages[0].content[1].detail',
      gemini: 'dropped-field@messages[0].content[1].detail',
      'bedrock-converse': 'dropped-field@messages[0].content[1].detail',
    },
    when: { client: 'openai-responses', side: 'upstream' },
    reason: 'Responses input_image always names a detail level; Claude, Gemini and Converse images have none',
  },
  {
    scenario: 'pdf',
    lost: { 'bedrock-converse': 'lossy-conversion@messages[0].content[0].filename' },
    reason: "Converse document names take letters, digits, spaces, -, () and []: 'doc.pdf' is sent as 'doc-pdf'",
  },
  {
    scenario: 'pdf',
    lost: { gemini: 'dropped-field@messages[0].content[0]' },
    when: { client: 'claude', side: 'upstream' },
    reason: 'a Claude document carries a title; Gemini inline data has none',
  },
  {
    scenario: ['tool-call', 'parallel-tools', 'tool-loop', 'tool-error', 'reasoning-tools'],
    lost: { gemini: 'dropped-field@tools[0].strict' },
    when: { client: 'openai-responses', side: 'upstream' },
    reason: 'Responses function tools always say strict (true or false); Gemini declarations have no strict flag',
  },
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
    scenario: 'reasoning-tools',
    lost: { gemini: null },
    when: { side: 'upstream' },
    reason:
      "a replayed Gemini function call without its own thought signature is sent with Google's documented skip_thought_signature_validator (not for a Gemini client's own turn, which keeps the call unsigned)",
    apply: (expected, client) => {
      if (client.id === 'gemini') return;
      expected.followUp?.signatures.push(`tool-call:${GEMINI_SKIP_SIGNATURE}@gemini`);
    },
  },
  {
    scenario: 'reasoning-tools',
    lost: { gemini: 'dropped-field@reasoning.budgetTokens' },
    when: { side: 'client', upstream: 'openai-chat' },
    reason: 'a Gemini client states reasoning as a thinking budget; Chat takes only an effort level',
  },
  {
    scenario: 'reasoning-tools',
    lost: { claude: 'dropped-field@reasoning' },
    when: { side: 'upstream', client: 'gemini' },
    reason:
      "a Gemini client states reasoning as a thinking budget; Anthropic takes one of 1024 up to max_tokens - 1, and the scenario's max_tokens of 1024 leaves none, so thinking is left out",
  },
  {
    scenario: 'reasoning-tools',
    lost: { 'bedrock-converse': 'dropped-field@reasoning' },
    when: { side: 'upstream', client: 'gemini' },
    reason:
      'a Gemini client states reasoning as a thinking budget; Converse takes only an effort level, and a budget only for Claude models (the scenario model is not one)',
  },
  {
    scenario: 'max-tokens',
    lost: { 'openai-responses': 'lossy-conversion@maxOutputTokens' },
    reason: 'Responses takes max_output_tokens of 16 or more (a 400 below): the scenario limit of 5 is sent as 16',
    apply: (expected) => {
      expected.request.maxOutputTokens = 16;
    },
  },
  {
    scenario: 'structured',
    lost: { claude: 'dropped-field@responseFormat.name', gemini: 'dropped-field@responseFormat.name' },
    reason: 'Claude output_config.format and Gemini responseJsonSchema have no schema name',
  },
  {
    scenario: 'audio',
    lost: { claude: 'dropped-part@messages[0].content[1]' },
    reason: 'Claude takes no audio input: the clip is reported and left out, the text goes',
    apply: (expected) => {
      for (const turn of expected.request.turns) turn.media = turn.media.filter((media) => !media.startsWith('audio:'));
    },
  },
  {
    scenario: 'audio',
    lost: { 'bedrock-converse': 'dropped-part@messages[0].content[1]' },
    reason: 'Converse takes no audio input: the clip is reported and left out, the text goes',
    apply: (expected) => {
      for (const turn of expected.request.turns) turn.media = turn.media.filter((media) => !media.startsWith('audio:'));
    },
  },
  {
    scenario: 'logprobs',
    lost: { claude: 'dropped-field@logprobs', 'bedrock-converse': 'dropped-field@logprobs' },
    reason: 'Claude and Converse return no token logprobs: the request for them is reported and left out',
    apply: (expected) => {
      delete expected.request.logprobs;
    },
  },
  {
    scenario: 'logprobs',
    lost: { claude: 'dropped-field@choices[0].logprobs', 'bedrock-converse': 'dropped-field@choices[0].logprobs' },
    when: { mode: 'json' },
    reason: 'an answer with logprobs reaches a Claude or Converse client without them (or such an upstream cannot send them)',
    apply: (expected) => {
      delete expected.response?.logprobs;
    },
  },
  {
    scenario: 'logprobs',
    lost: { claude: 'dropped-field@blocks[0].logprobs', 'bedrock-converse': 'dropped-field@blocks[0].logprobs' },
    when: { mode: 'stream' },
    reason: 'streamed logprobs reach a Claude or Converse client without them (or such an upstream cannot stream them)',
    apply: (expected) => {
      delete expected.response?.logprobs;
    },
  },
  {
    scenario: 'hosted-mcp',
    lost: { 'openai-chat': 'dropped-tool@tools[0]', gemini: 'dropped-tool@tools[0]', 'bedrock-converse': 'dropped-tool@tools[0]' },
    reason:
      'Chat, Gemini and Converse host no MCP: without a gateway MCP host (issue 24) the server is reported and left out, and so are the calls and results of an answer',
    apply: (expected) => {
      expected.request.tools = expected.request.tools.filter((name) => name !== 'deepwiki');
      delete expected.response?.mcp;
    },
  },
  ...[0, 1].map(
    (at): ExpectedLoss => ({
      scenario: 'hosted-mcp',
      lost: {
        'openai-chat': `dropped-part@choices[0].content[${at}]`,
        gemini: `dropped-part@choices[0].content[${at}]`,
        'bedrock-converse': `dropped-part@choices[0].content[${at}]`,
      },
      when: { mode: 'json' },
      reason: `an MCP ${at === 0 ? 'call' : 'result'} in an answer has no Chat, Gemini or Converse form`,
    }),
  ),
  // A streamed call or result is reported by the upstream that cannot stream it, else by the client.
  ...[0, 1].flatMap((at): ExpectedLoss[] =>
    (['upstream', 'client'] as const).map((side) => ({
      scenario: 'hosted-mcp',
      lost: { 'openai-chat': `dropped-part@blocks[${at}]`, gemini: `dropped-part@blocks[${at}]`, 'bedrock-converse': `dropped-part@blocks[${at}]` },
      when: side === 'upstream' ? { mode: 'stream', side } : { mode: 'stream', side, upstream: ['openai-responses', 'claude'] },
      reason: `a streamed MCP ${at === 0 ? 'call' : 'result'} has no Chat, Gemini or Converse stream form`,
    })),
  ),
  {
    scenario: 'web-search',
    lost: { claude: 'lossy-conversion@choices[0].content[0].citations[0]' },
    // Behind a Converse upstream a Claude client gets no citation to rewrite.
    when: { mode: 'json', upstream: ['openai-chat', 'openai-responses', 'claude', 'gemini'] },
    reason: "a URL citation from another protocol becomes a Claude web_search_result_location without Claude's encrypted_index",
  },
  {
    scenario: 'web-search',
    lost: { claude: 'lossy-conversion@blocks[0].citations' },
    // Behind a Converse upstream a Claude client gets no streamed citation to rewrite.
    when: { mode: 'stream', upstream: ['openai-chat', 'openai-responses', 'claude', 'gemini'] },
    reason: "a streamed URL citation from another protocol becomes a Claude citations_delta without Claude's encrypted_index",
  },
  {
    scenario: 'web-search',
    lost: { 'bedrock-converse': 'dropped-tool@tools[0]' },
    reason: 'Converse has no model-independent web search tool: it is reported and left out',
    apply: (expected) => {
      expected.request.tools = expected.request.tools.filter((name) => name !== 'web_search');
      delete expected.response?.citations;
    },
  },
  {
    scenario: 'web-search',
    lost: { 'bedrock-converse': 'dropped-field@choices[0].content[0].citations' },
    when: { mode: 'json' },
    reason: 'Converse text carries no citations: an answer with them reaches a Converse client without them (or a Converse upstream cannot send them)',
  },
  {
    scenario: 'web-search',
    lost: { 'bedrock-converse': 'dropped-field@blocks[0].citations' },
    when: { mode: 'stream' },
    reason: 'Converse streams carry no citations: a streamed citation is reported and left out',
  },
  {
    scenario: ['usage', 'reasoning-tools'],
    lost: { 'bedrock-converse': 'dropped-field@usage.reasoningTokens' },
    reason: 'Converse usage has no reasoning-token count: it is reported and left out (output tokens still include it)',
    apply: (expected) => {
      if (expected.response?.usage) delete expected.response.usage.reasoningTokens;
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
    // No warning: the refusal crosses; what differs is where its text sits and the reason word.
    lost: { 'openai-chat': null, claude: null, gemini: null, 'bedrock-converse': null },
    reason:
      "Chat says a refusal as finish_reason content_filter with its refusal string; Claude, Gemini and Converse have no refusal block (the text is plain text; Claude says stop_reason 'refusal', Gemini SAFETY, Converse content_filtered)",
    apply: refusalAcross,
  },
  {
    scenario: 'content-filter',
    lost: { claude: null },
    reason: "Claude has no content-filter stop reason: Claude says 'refusal', which a Responses client reads from a refusal part the gateway writes",
    apply: refusalAcross,
  },
  {
    scenario: ['claude-refusal-partial', 'claude-refusal-empty'],
    // A Claude classifier refusal: partial or no text and stop_reason 'refusal', nothing else.
    lost: { 'openai-chat': null, 'openai-responses': null, gemini: null, 'bedrock-converse': null },
    reason:
      'a Claude refusal reaches Chat as content_filter (with the fallback refusal string when there is no text), Responses with a refusal part (REFUSAL_FALLBACK_TEXT), Gemini as SAFETY, Converse as content_filtered',
    apply: refusalAcross,
  },
  {
    scenario: 'stream-error',
    lost: { 'openai-chat': null, 'openai-responses': null },
    when: { side: 'upstream', client: ['claude', 'gemini', 'bedrock-converse'] },
    reason:
      "OpenAI streams have no 'overloaded' error: behind Chat a Claude, Gemini or Converse client gets a server error, behind Responses an upstream (502) error (a server error to a Converse client, whose stream errors have names, not statuses; OpenAI clients read their own that way already)",
    apply: (expected, client, upstream) => {
      // Converse streams name errors, not statuses: an upstream error is an InternalServerException.
      if (upstream.id === 'openai-chat' || client.id === 'claude' || client.id === 'bedrock-converse') expected.error = serverError(client);
      else if (expected.error) expected.error.status = 502;
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
      expected.error = serverError(client);
    },
  },
];

/** The losses of one cell and the warnings they must produce. */
export function lossesFor(scenario: string, client: ProtocolId, upstream: ProtocolId, mode: Mode): { losses: ExpectedLoss[]; warnings: string[] } {
  const losses: ExpectedLoss[] = [];
  const warnings: string[] = [];
  for (const loss of EXPECTED_LOSSES) {
    if (!([] as string[]).concat(loss.scenario).includes(scenario)) continue;
    const when = loss.when ?? {};
    if (
      (when.client && !([] as ProtocolId[]).concat(when.client).includes(client)) ||
      (when.upstream && !([] as ProtocolId[]).concat(when.upstream).includes(upstream)) ||
      (when.mode && when.mode !== mode)
    )
      continue;
    const side = when.side !== 'upstream' && client in loss.lost ? client : when.side !== 'client' && upstream in loss.lost ? upstream : undefined;
    if (side === undefined) continue;
    losses.push(loss);
    const warning = loss.lost[side];
    if (warning && !warnings.includes(warning)) warnings.push(warning);
  }
  return { losses, warnings };
}

/** The legend line of a loss: the protocols, the narrowing, the reason. */
export function describeLoss(loss: ExpectedLoss, short: (id: ProtocolId) => string): string {
  const who = Object.keys(loss.lost)
    .map((id) => short(id as ProtocolId))
    .join(', ');
  const { side, client, upstream, mode } = loss.when ?? {};
  const narrowing = [
    side && `as ${side}`,
    client && `client ${([] as ProtocolId[]).concat(client).map(short).join('/')}`,
    upstream && `upstream ${([] as ProtocolId[]).concat(upstream).map(short).join('/')}`,
    mode && `${mode} only`,
  ].filter(Boolean);
  return `- ${([] as string[]).concat(loss.scenario).join(', ')} (${who}${narrowing.length > 0 ? `; ${narrowing.join(', ')}` : ''}): ${loss.reason}`;
}
