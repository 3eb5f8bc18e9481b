import type { LlmCodeExecutionPart, LlmCodeExecutionResultPart } from './code-execution.js';
import type { WithExtensions } from './extensions.js';
import { checkParsedDepth } from './json-depth.js';
import type { JsonObject } from './json.js';
import type { LlmMcpApprovalResponsePart, LlmMcpAssistantPart } from './mcp.js';
import type { LlmOrigin, ProtocolId } from './protocol.js';

/**
 * A prompt-cache breakpoint on a block (Anthropic `cache_control`, OpenAI part
 * `prompt_cache_breakpoint`). Protocols with automatic caching ignore it.
 */
export interface LlmCacheHint {
  /** Lifetime of the cache entry. Anthropic: `5m` (default) or `1h`. */
  ttl?: '5m' | '1h';
}

/** Fields every content part may carry. */
export interface LlmPartBase extends WithExtensions {
  /** Cache breakpoint after this part (Anthropic `cache_control`). */
  cache?: LlmCacheHint;
}

/**
 * Where media bytes live.
 * - `base64`: inline data with its media type.
 * - `url`: an http(s) URL (or a `data:` URL kept as the client sent it).
 * - `file`: an id of a file uploaded to a provider's Files API (OpenAI `file-…`, Anthropic
 *   `file_…`, a Gemini `files/…` URI). Only valid for that provider: see `provider`.
 * - `text`: plain text used as a document (Anthropic `document` with a `text` source).
 */
export type LlmMediaSource =
  | { kind: 'base64'; mediaType: string; data: string }
  | { kind: 'url'; url: string; mediaType?: string }
  | { kind: 'file'; fileId: string; mediaType?: string; provider?: ProtocolId }
  | { kind: 'text'; text: string; mediaType?: string };

/** Plain text. Assistant text may carry citations. */
export interface LlmTextPart extends LlmPartBase {
  type: 'text';
  text: string;
  /** Sources the text cites (Claude `citations`, OpenAI `annotations`, Gemini citation metadata). */
  citations?: LlmCitation[];
  /**
   * Opaque provider state attached to this part (a Gemini `thoughtSignature` on a text part).
   * Replayed only to its {@link LlmTextPart.origin}.
   */
  signature?: string;
  /** Who issued {@link LlmTextPart.signature}. */
  origin?: LlmOrigin;
}

/** An image. */
export interface LlmImagePart extends LlmPartBase {
  type: 'image';
  source: LlmMediaSource;
  /** Resolution hint: OpenAI `detail` (`auto`/`low`/`high`/`original`), Gemini media resolution. */
  detail?: 'auto' | 'low' | 'high' | 'original';
}

/** Audio input (OpenAI `input_audio`, Gemini `inlineData` audio/*). */
export interface LlmAudioPart extends LlmPartBase {
  type: 'audio';
  source: LlmMediaSource;
  /** Short format name as OpenAI names it (`wav`, `mp3`), when known. */
  format?: string;
}

/**
 * A document or any other file: PDF, plain text, video, etc. (Claude `document`, OpenAI `file` /
 * `input_file`, Gemini `inlineData` / `fileData`).
 */
export interface LlmFilePart extends LlmPartBase {
  type: 'file';
  source: LlmMediaSource;
  /** File name, when the wire gives one (OpenAI `filename`). */
  filename?: string;
  /** Document title (Claude `title`). */
  title?: string;
  /** Context about the document for the model (Claude `context`). */
  context?: string;
  /** Whether the model may cite this document (Claude `citations.enabled`). */
  citations?: boolean;
}

/**
 * Model reasoning. `text` is what the provider shows (full thinking, or a summary), possibly
 * empty. The opaque fields must travel back unchanged to the provider that issued them.
 */
export interface LlmReasoningPart extends LlmPartBase {
  type: 'reasoning';
  /** Visible reasoning text; `''` when the provider shows none. */
  text: string;
  /** `summary` when `text` is a provider-written summary (OpenAI Responses `summary`). */
  format?: 'full' | 'summary';
  /**
   * Opaque state that proves or carries the reasoning: a Claude thinking `signature`, a Gemini
   * `thoughtSignature`, an OpenAI Responses `encrypted_content`.
   */
  signature?: string;
  /**
   * True when the reasoning is hidden and only opaque data remains (Claude `redacted_thinking`,
   * whose `data` is in {@link LlmReasoningPart.signature}).
   */
  redacted?: boolean;
  /** Provider id of the reasoning item (OpenAI Responses `rs_…`). */
  id?: string;
  /** Who issued the opaque state. */
  origin?: LlmOrigin;
}

/** A call the assistant makes to a client-side tool. */
export interface LlmToolCallPart extends LlmPartBase {
  type: 'tool-call';
  /** Call id (`call_…`, `toolu_…`, or one a codec made up for Gemini calls that had none). */
  id: string;
  /** Tool name. */
  name: string;
  /**
   * The arguments as the wire carried them: JSON text (OpenAI) or the parsed object (Claude,
   * Gemini). Keeping the wire form avoids a parse/stringify round trip on same-protocol paths;
   * use {@link toolArgumentsText} / {@link toolArgumentsObject} to read either form. For a
   * free-form tool this is the raw input text.
   */
  arguments: string | JsonObject;
  /** True for a call to a free-form (OpenAI `custom`) tool: `arguments` is plain text, not JSON. */
  freeform?: boolean;
  /** Opaque state on the call (a Gemini `thoughtSignature` on a `functionCall` part). */
  signature?: string;
  /** Who issued {@link LlmToolCallPart.signature}. */
  origin?: LlmOrigin;
}

/** Content a tool result may hold. */
export type LlmToolResultContent = LlmTextPart | LlmImagePart | LlmFilePart | LlmAudioPart | LlmJsonPart;

/** A structured value (a Gemini `functionResponse.response` object). */
export interface LlmJsonPart extends LlmPartBase {
  type: 'json';
  value: unknown;
}

/** The result of a tool call, sent back by the client. */
export interface LlmToolResultPart extends LlmPartBase {
  type: 'tool-result';
  /** Id of the call this answers. */
  toolCallId: string;
  /** Name of the tool, when the wire says (Gemini needs it; OpenAI legacy `function` role). */
  toolName?: string;
  /** The output: a plain string, or parts (text, images, files, a JSON value). */
  content: string | LlmToolResultContent[];
  /** True when the tool failed (Claude `is_error`). */
  isError?: boolean;
}

/** The model declined to answer (OpenAI `refusal`). */
export interface LlmRefusalPart extends LlmPartBase {
  type: 'refusal';
  text: string;
}

/**
 * A protocol-specific item with no canonical meaning: a server tool call or result (Claude
 * `server_tool_use` of web search, `web_search_tool_result`; Responses `web_search_call`), kept
 * whole so that a same-protocol round trip is lossless. Other codecs drop it and report a warning.
 */
export interface LlmProviderPart extends LlmPartBase {
  type: 'provider';
  /** Protocol whose wire shape `value` is. */
  protocol: ProtocolId;
  /** The wire item, untouched. */
  value: unknown;
  /** A readable rendering for targets that can show text (optional). */
  text?: string;
}

/** A source the model cites. */
export interface LlmCitation extends WithExtensions {
  /** `url` for web sources, `document` for a document in the prompt, `file` for an uploaded file. */
  kind: 'url' | 'document' | 'file';
  url?: string;
  title?: string;
  /** The cited passage. */
  citedText?: string;
  /** Index of the cited document in the prompt (Claude `document_index`). */
  documentIndex?: number;
  fileId?: string;
  /** Character range in this text part that the citation covers (OpenAI annotations). */
  startIndex?: number;
  endIndex?: number;
}

/** Content of a user message. */
export type LlmUserContent = LlmTextPart | LlmImagePart | LlmAudioPart | LlmFilePart | LlmProviderPart | LlmMcpApprovalResponsePart;

/** Content of an assistant message. */
export type LlmAssistantContent =
  | LlmTextPart
  | LlmReasoningPart
  | LlmToolCallPart
  | LlmRefusalPart
  | LlmImagePart
  | LlmAudioPart
  | LlmFilePart
  | LlmProviderPart
  | LlmMcpAssistantPart
  | LlmCodeExecutionPart
  | LlmCodeExecutionResultPart;

/** Any content part. */
export type LlmPart =
  | LlmTextPart
  | LlmImagePart
  | LlmAudioPart
  | LlmFilePart
  | LlmReasoningPart
  | LlmToolCallPart
  | LlmToolResultPart
  | LlmRefusalPart
  | LlmJsonPart
  | LlmProviderPart
  | LlmMcpAssistantPart
  | LlmMcpApprovalResponsePart
  | LlmCodeExecutionPart
  | LlmCodeExecutionResultPart;

/** Tool-call arguments as JSON text (stringifies the object form). */
export function toolArgumentsText(args: string | JsonObject): string {
  return typeof args === 'string' ? args : JSON.stringify(args);
}

/**
 * Tool-call arguments as an object. JSON text is parsed; text that is not a JSON object (a model
 * that emitted broken JSON), or nests deeper than `MAX_JSON_DEPTH` (a string inside a body that
 * passed the depth check can still hold a bomb for a later `JSON.stringify`), returns
 * `undefined` so the caller can report it.
 */
export function toolArgumentsObject(args: string | JsonObject): JsonObject | undefined {
  if (typeof args !== 'string') return args;
  if (args.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(args);
    checkParsedDepth(args, value);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** Why a call's arguments could not go to a target that takes only JSON-object arguments as they were. */
export type CallArgumentsLoss = 'freeform' | 'not-an-object';

/** The message of each {@link CallArgumentsLoss}: one wording for every codec, stream and non-stream. */
export const CALL_ARGUMENTS_LOSS: Readonly<Record<CallArgumentsLoss, string>> = {
  freeform: 'a free-form tool call was sent as a call with one string argument `input`',
  'not-an-object': 'tool-call arguments that are not a JSON object were replaced by {}',
};

/**
 * A call's arguments for a target whose calls carry a JSON object (Claude `input`, Gemini `args`,
 * Converse `input`): a free-form call's raw input becomes the one string argument `input` its
 * declaration takes; text that is not a JSON object becomes `{}`. `report` hears each loss (the
 * free-form one at the call's path, the other at its `.arguments`).
 */
export function objectCallArguments(args: string | JsonObject, freeform: boolean | undefined, report: (loss: CallArgumentsLoss) => void): JsonObject {
  if (freeform) {
    report('freeform');
    return { input: typeof args === 'string' ? args : JSON.stringify(args) };
  }
  const object = toolArgumentsObject(args);
  if (object) return object;
  report('not-an-object');
  return {};
}

/** Concatenated text of the text parts in `parts` (other parts are skipped). */
export function textOf(parts: string | readonly { type: string; text?: string }[]): string {
  if (typeof parts === 'string') return parts;
  let out = '';
  for (const part of parts) if (part.type === 'text' && part.text) out += part.text;
  return out;
}
