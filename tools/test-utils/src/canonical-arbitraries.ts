// fast-check arbitraries of canonical assistant parts and responses, shared by the codecs'
// stream/non-stream agreement properties. Structural types: test-utils does not import core (core
// dev-depends on it), so core values such as FINISH_REASONS come in as parameters.
import fc from 'fast-check';
import { warningKinds, type WarningLike } from './encode-both-ways.js';
import { propertyRuns } from './property-runs.js';

/** Whose state a part carries, as core's `LlmOrigin` has it. */
export interface OriginLike<P extends string = string> {
  protocol: P;
}

/** A text of up to 12 characters (`minLength` 1 where a protocol has no form for an empty one). */
export function texts(minLength = 0): fc.Arbitrary<string> {
  return fc.string({ minLength, maxLength: 12 });
}

/** An opaque signature: `prefix` and 1-6 letters or digits. */
export function signatures(prefix = 'sig'): fc.Arbitrary<string> {
  return fc.stringMatching(new RegExp(`^${prefix}[A-Za-z0-9]{1,6}$`));
}

/** A wire id: `prefix` and 1-`max` lower-case letters or digits. */
export function ids(prefix: string, max = 8): fc.Arbitrary<string> {
  return fc.stringMatching(new RegExp(`^${prefix}[a-z0-9]{1,${max}}$`));
}

export const toolNames: fc.Arbitrary<string> = fc.stringMatching(/^[a-z_]{1,10}$/);

/** `part` with `signature` set, unless there is none. */
const withSignature = <T extends object>(part: T, value: string | undefined): T => (value === undefined ? part : { ...part, signature: value });

const pick = <T>(values: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...values);

/** A part with its `origin`, or without one for an `undefined` origin. */
const withOrigin = <T extends object, P extends string>(part: T, origin: OriginLike<P> | undefined): T & { origin?: OriginLike<P> } =>
  origin ? { ...part, origin } : part;

export const textParts = (text: fc.Arbitrary<string>) => text.map((value) => ({ type: 'text' as const, text: value }));

/** A text with a signature: always (`optional` false) or as often as not. */
export function signedTextParts(text: fc.Arbitrary<string>, signature: fc.Arbitrary<string>, optional = false) {
  const sig: fc.Arbitrary<string | undefined> = optional ? fc.option(signature, { nil: undefined }) : signature;
  return fc.tuple(text, sig).map(([value, drawn]) => withSignature({ type: 'text' as const, text: value }, drawn));
}

/** Reasoning with an optional signature, from one of `origins` (`undefined`: none). */
export function reasoningParts<P extends string>(text: fc.Arbitrary<string>, signature: fc.Arbitrary<string>, origins: readonly (OriginLike<P> | undefined)[]) {
  return fc
    .tuple(text, fc.option(signature, { nil: undefined }), pick(origins))
    .map(([value, sig, origin]) => withSignature(withOrigin({ type: 'reasoning' as const, text: value }, origin), sig));
}

/** Redacted reasoning (Claude's `redacted_thinking`): no text, its data the signature. */
export function redactedReasoningParts<P extends string>(signature: fc.Arbitrary<string>, origins: readonly (OriginLike<P> | undefined)[]) {
  return fc
    .tuple(signature, pick(origins))
    .map(([data, origin]) => withOrigin({ type: 'reasoning' as const, text: '', redacted: true as const, signature: data }, origin));
}

export const refusalParts = (text: fc.Arbitrary<string>) => text.map((value) => ({ type: 'refusal' as const, text: value }));

/** Tool calls with object arguments: up to 3 keys, integer, boolean or `text` values. */
export function objectCallParts(callId: fc.Arbitrary<string>, text: fc.Arbitrary<string>) {
  return fc
    .record({
      id: callId,
      name: toolNames,
      arguments: fc.dictionary(fc.stringMatching(/^[a-z]{1,5}$/), fc.oneof(fc.integer(), text, fc.boolean()), { maxKeys: 3 }),
    })
    .map((call) => ({ type: 'tool-call' as const, ...call }));
}

/** Free-form calls (a custom tool's raw input). */
export function freeformCallParts(callId: fc.Arbitrary<string>, input: fc.Arbitrary<string>) {
  return fc.record({ id: callId, name: toolNames, arguments: input }).map((call) => ({ type: 'tool-call' as const, ...call, freeform: true as const }));
}

/** Calls whose arguments are a JSON text, one of `argumentTexts` (not an object, unless listed). */
export function textArgumentCallParts(callId: fc.Arbitrary<string>, argumentTexts: readonly string[]) {
  return fc.record({ id: callId, name: toolNames, arguments: pick(argumentTexts) }).map((call) => ({ type: 'tool-call' as const, ...call }));
}

/** Signed calls with no arguments (Gemini's, no origin). */
export function signedCallParts(callId: fc.Arbitrary<string>, signature: fc.Arbitrary<string>) {
  return fc.tuple(callId, toolNames, signature).map(([id, name, sig]) => ({ type: 'tool-call' as const, id, name, arguments: {}, signature: sig }));
}

/** The three tool-call variants every property draws: object, free-form and JSON-text arguments. */
export function toolCallParts(options: {
  callId: fc.Arbitrary<string>;
  text: fc.Arbitrary<string>;
  freeformText?: fc.Arbitrary<string>;
  argumentTexts: readonly string[];
}) {
  return [
    objectCallParts(options.callId, options.text),
    freeformCallParts(options.callId, options.freeformText ?? options.text),
    textArgumentCallParts(options.callId, options.argumentTexts),
  ] as const;
}

/** A file a code run wrote, as core's `LlmMediaSource` has one. */
export type CodeFile = { kind: 'file'; fileId: string; provider: 'claude' } | { kind: 'url'; url: string };

/** Files a code run wrote: a Claude file id, or an image URL (a Responses output). */
export const codeFiles: fc.Arbitrary<CodeFile> = fc.oneof(
  ids('file_', 6).map((fileId) => ({ kind: 'file' as const, fileId, provider: 'claude' as const })),
  fc.webUrl().map((url) => ({ kind: 'url' as const, url })),
);

export interface CodeRunOptions<P extends string> {
  /** Languages the code is in (`python` for all, `bash` for Claude). */
  languages: readonly string[];
  /** The code part's id, drawn or left out (Gemini often sends none), and the result's `callId` as often. */
  id: fc.Arbitrary<string>;
  origins: readonly (OriginLike<P> | undefined)[];
}

/**
 * A code run: a `code-execution` part and the `code-execution-result` right after it (its
 * `callId` the code's id, its own id when the code has none, or none), ok / failed / timeout,
 * with an optional standard error, exit status, sandbox error and files.
 */
export function codeRunParts<P extends string>(options: CodeRunOptions<P>) {
  const { languages, id, origins } = options;
  const result = fc.record(
    {
      outcome: pick(['ok', 'failed', 'timeout'] as const),
      output: fc.string({ maxLength: 12 }),
      stderr: fc.string({ maxLength: 8 }),
      returnCode: fc.nat(2),
      error: pick(['unavailable', 'too_many_requests', 'execution_time_exceeded']),
      files: fc.array(codeFiles, { minLength: 1, maxLength: 2 }),
    },
    { requiredKeys: ['outcome', 'output'] },
  ) as fc.Arbitrary<{ outcome: 'ok' | 'failed' | 'timeout'; output: string; stderr?: string; returnCode?: number; error?: string; files?: CodeFile[] }>;
  return fc
    .tuple(fc.option(id, { nil: undefined }), pick(languages), fc.string({ maxLength: 12 }), pick(origins), fc.option(id, { nil: undefined }), result)
    .map(([runId, language, code, origin, resultId, fields]) => {
      const run = withOrigin({ type: 'code-execution' as const, language, code, ...(runId === undefined ? {} : { id: runId }) }, origin);
      // The result names the code's id, or none; an id on the result alone is Gemini's (its parts carry their own).
      const callId = resultId === undefined ? undefined : (runId ?? resultId);
      const answer = withOrigin({ type: 'code-execution-result' as const, ...fields, ...(callId === undefined ? {} : { callId }) }, origin);
      return [run, answer] as const;
    });
}

/** A provider part: the item of one protocol of `values` (each its wire items), kept whole. */
export function providerParts<P extends string>(values: Readonly<Record<P, fc.Arbitrary<unknown>>>) {
  const entries = Object.entries<fc.Arbitrary<unknown>>(values);
  return fc.oneof(...entries.map(([protocol, value]) => value.map((item) => ({ type: 'provider' as const, protocol: protocol as P, value: item }))));
}

/** Server tool items as each protocol's answer has them (a codec writes its own back whole). */
export const providerItems = {
  claude: ids('srvtoolu_', 6).map((id) => ({ type: 'server_tool_use', id, name: 'web_search', input: { query: 'q' } })),
  'openai-responses': ids('ws_', 6).map((id) => ({ type: 'web_search_call', id, status: 'completed' })),
  gemini: fc.constant({ toolCall: { id: 'tc1', name: 'google_search' } }),
  'bedrock-converse': fc.constant({ guardContent: { text: { text: 'g' } } }),
} as const;

const servers: fc.Arbitrary<string> = fc.stringMatching(/^[a-z]{1,6}$/);

/** MCP arguments: JSON text or an object. */
const mcpArguments = (text: fc.Arbitrary<string>) =>
  fc.oneof(fc.constantFrom('{}', '{"q":1}'), fc.dictionary(fc.stringMatching(/^[a-z]{1,5}$/), fc.oneof(fc.integer(), text), { maxKeys: 2 }));

/**
 * The MCP parts: a tools listing (Responses `mcpl_`), a call (ids of `callId`) with its result
 * right after it, and an approval request (`mcpr_`).
 */
export function mcpParts(options: { text: fc.Arbitrary<string>; callId: fc.Arbitrary<string> }) {
  const { text, callId } = options;
  const tool = fc.record(
    { name: toolNames, description: text, inputSchema: fc.constant({ type: 'object' }) },
    { requiredKeys: ['name', 'inputSchema'] },
  ) as fc.Arbitrary<{ name: string; description?: string; inputSchema: { type: string } }>;
  const listing = fc
    .record({ id: ids('mcpl_', 6), server: servers, tools: fc.array(tool, { maxLength: 2 }), error: text }, { requiredKeys: ['id', 'server', 'tools'] })
    .map((fields) => ({ type: 'mcp-list-tools' as const, ...fields }));
  const content = fc.oneof(text, fc.array(textParts(text), { minLength: 1, maxLength: 2 }));
  const call = fc
    .tuple(callId, servers, toolNames, mcpArguments(text), fc.option(ids('mcpr_', 6), { nil: undefined }), content, fc.option(fc.boolean(), { nil: undefined }))
    .map(([id, server, name, args, approval, output, isError]) => {
      const asked = { type: 'mcp-call' as const, id, server, name, arguments: args, ...(approval === undefined ? {} : { approvalRequestId: approval }) };
      const answer = { type: 'mcp-result' as const, callId: id, content: output, ...(isError === undefined ? {} : { isError }) };
      return [asked, answer] as const;
    });
  const approval = fc
    .record({ id: ids('mcpr_', 6), server: servers, name: toolNames, arguments: mcpArguments(text) })
    .map((fields) => ({ type: 'mcp-approval-request' as const, ...fields }));
  return [listing, call, approval] as const;
}

/**
 * What every property draws besides its own parts: a refusal, the three tool-call variants
 * (`argumentTexts` for the JSON-text one) and, given `run`, a code run.
 */
export function sharedParts<P extends string = never>(options: {
  text: fc.Arbitrary<string>;
  callId: fc.Arbitrary<string>;
  freeformText?: fc.Arbitrary<string>;
  argumentTexts: readonly string[];
  run?: CodeRunOptions<P>;
}) {
  return [refusalParts(options.text), ...toolCallParts(options), ...(options.run ? [codeRunParts(options.run)] : [])] as const;
}

/** Usage counts: input and output always (up to 1000), each of `optional` up to its maximum. */
export function usages<K extends string = never>(optional: Readonly<Record<K, number>> = {} as Record<K, number>) {
  const counts = Object.fromEntries(Object.entries<number>(optional).map(([key, max]) => [key, fc.nat(max)])) as Record<K, fc.Arbitrary<number>>;
  return fc.record({ inputTokens: fc.nat(1000), outputTokens: fc.nat(1000), ...counts }, { requiredKeys: ['inputTokens', 'outputTokens'] }) as fc.Arbitrary<
    { inputTokens: number; outputTokens: number } & Partial<Record<NoInfer<K>, number>>
  >;
}

export interface ResponseOptions<Usage> {
  id: fc.Arbitrary<string>;
  models: readonly string[];
  usage: fc.Arbitrary<Usage>;
  /** 1-2 choices (`many`) or one. */
  choices?: 'one' | 'many';
  /** Draw a choice's `stopSequence` (optional). */
  stopSequence?: boolean;
  /** Always set `created`: with none, each encoder stamps its own clock. */
  created?: boolean;
  /** Service tiers to draw one from (optional). */
  serviceTiers?: readonly string[];
}

/**
 * A response: up to 4 drawn items of content per choice (`part`: a part, or parts that stay
 * together, such as a code run), a finish reason of `finishReasons` (core's FINISH_REASONS), an
 * optional usage and the optional fields asked for.
 */
export function responses<Part, Reason, Usage>(part: fc.Arbitrary<Part | readonly Part[]>, finishReasons: readonly Reason[], options: ResponseOptions<Usage>) {
  const content = fc
    .array(part, { maxLength: 4 })
    .map((items) => items.flatMap((item): Part[] => (Array.isArray(item) ? [...(item as readonly Part[])] : [item as Part])));
  const choice = fc.record(
    { content, finishReason: pick(finishReasons), ...(options.stopSequence ? { stopSequence: fc.stringMatching(/^[A-Z]{1,4}$/) } : {}) },
    { requiredKeys: ['content', 'finishReason'] },
  ) as fc.Arbitrary<{ content: Part[]; finishReason: Reason; stopSequence?: string }>;
  const choices =
    options.choices === 'many'
      ? fc.array(choice, { minLength: 1, maxLength: 2 }).map((list) => list.map((drawn, index) => ({ index, ...drawn })))
      : choice.map((drawn) => [{ index: 0, ...drawn }]);
  const record = {
    id: options.id,
    model: pick(options.models),
    ...(options.created ? { created: fc.nat(2_000_000_000) } : {}),
    choices,
    usage: options.usage,
    ...(options.serviceTiers ? { serviceTier: pick(options.serviceTiers) } : {}),
  };
  return fc.record(record, { requiredKeys: ['id', 'model', 'choices', ...(options.created ? ['created' as const] : [])] }) as fc.Arbitrary<{
    id: string;
    model: string;
    created?: number;
    choices: { index: number; content: Part[]; finishReason: Reason; stopSequence?: string }[];
    usage?: Usage;
    serviceTier?: string;
  }>;
}

/** Both encodings of a response, as far as {@link assertAgreement} compares them. */
export interface Agreement {
  body: unknown;
  streamWarnings: readonly WarningLike[];
  bodyWarnings: readonly WarningLike[];
}

/** vitest's `expect`, as far as {@link assertAgreement} uses it (test-utils runs no test runner itself). */
export type ExpectLike = (actual: unknown) => { toEqual(expected: unknown): void };

/**
 * For `runs` drawn values (a fixed seed: see `propertyRuns`): `encode` gives both encodings,
 * `fold` the stream read as its client reads it (and the body in the same form, when it is not
 * the body as written); the two are equal, and both paths report the same warning kinds. `fold`
 * may assert more of its own.
 */
export function assertAgreement<T, B extends Agreement>(
  arbitrary: fc.Arbitrary<T>,
  encode: (value: T) => B,
  fold: (both: B) => { streamed: unknown; body?: unknown },
  expect: ExpectLike,
  runs = 1000,
): void {
  fc.assert(
    fc.property(arbitrary, (value) => {
      const both = encode(value);
      const folded = fold(both);
      expect(folded.streamed).toEqual('body' in folded ? folded.body : both.body);
      expect(warningKinds(both.streamWarnings)).toEqual(warningKinds(both.bodyWarnings));
    }),
    propertyRuns(runs),
  );
}
