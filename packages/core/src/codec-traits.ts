/**
 * What a translator needs to know about a protocol beyond its transcoders, as data (`traits`) and
 * as the few answers it builds for a client (`endpoints`). The router reads these instead of
 * protocol names, so a fifth codec routes with no router change. Every field is required: a codec
 * states each rule, none is assumed.
 */

/** The tool names a protocol accepts. */
export interface ToolNameRule {
  /** Matches every character the protocol rejects (a global pattern: each is replaced by `_`). */
  readonly invalidCharacter: RegExp;
  /** A valid name starts with a match of this, when the protocol restricts the first character. */
  readonly validStart?: RegExp;
  /** Longest name accepted. */
  readonly maxLength: number;
}

/** Which media kinds a protocol accepts by URL (others must be sent inline). */
export interface MediaByUrl {
  readonly image: boolean;
  readonly file: boolean;
  readonly audio: boolean;
}

/** A protocol's rules, as a translation target (requests it receives) and as a client (answers it gets). */
export interface CodecTraits {
  // As a target: requests the router sends this protocol's upstreams.
  /** Most stop sequences a request may carry; absent when unbounded. */
  readonly maxStopSequences?: number;
  /** Takes `n` / `candidateCount` > 1; otherwise it is sent as 1, reported. */
  readonly multipleCandidates: boolean;
  /** Takes freeform (custom) tools; otherwise they are sent as functions taking `{ input: string }`. */
  readonly freeformTools: boolean;
  /** The tool names it accepts; others are renamed and named back in answers. */
  readonly toolNames: ToolNameRule;
  /**
   * Rejects a tool call the next turn does not answer (present), and then whether its tool
   * results carry an error flag for the synthetic "no result" answer (Claude `is_error`).
   */
  readonly everyCallAnswered?: { readonly errorFlag: boolean };
  /**
   * Turns must alternate and system instructions come only first: same-role turns are merged,
   * empty content dropped, later system messages sent as user text.
   */
  readonly alternatingTurns: boolean;
  /** Tool results may hold media; otherwise the media move to a user message after them. */
  readonly mediaInToolResults: boolean;
  /** A `none` tool choice takes the parallel-calls flag; otherwise the flag is dropped with it. */
  readonly parallelFlagWithNoneChoice: boolean;
  /** Media kinds it accepts by URL (the router may download the others when configured). */
  readonly mediaByUrl: MediaByUrl;
  /** A stream reports usage only when the request asks for it (Chat `stream_options.include_usage`). */
  readonly streamUsageOnRequest: boolean;
  /** Enforces tool and response schemas in strict mode (OpenAI `strict: true`). */
  readonly strictSchemas: boolean;
  /**
   * The provider runs remote MCP servers itself (Responses `mcp` tools, Claude `mcp_servers`):
   * MCP tools and parts are encoded for it; otherwise the router runs the MCP loop
   * and the encoder reports MCP tools and parts it is given as dropped.
   */
  readonly hostedMcp: boolean;

  // As a client: answers the router gives this protocol's clients.
  /** Its clients expect stream content blocks one at a time, never interleaved (Anthropic). */
  readonly sequentialStreamBlocks: boolean;
  /**
   * The SSE `event:` names that open its stream, sent once before anything else (a passed-through
   * stream that already sent them must not get them again with an error the router adds).
   */
  readonly streamOpeningEvents: readonly string[];
  /** Its clients echo reasoning state in a native field (signature, encrypted content). */
  readonly reasoningStateField: boolean;
  /** Its clients echo the signatures of tool calls and text in a native field (Gemini `thoughtSignature`). */
  readonly partSignatureField: boolean;
  /**
   * A request header only this protocol's clients send (`anthropic-version`): with it, this codec
   * is asked first to match a client call; without it, last, so paths it shares with others (the
   * model list) go to them. Absent when the protocol's clients send no such header.
   */
  readonly clientHeader?: string;
  /**
   * Answers are stored by id and continued by `previous_response_id` (OpenAI Responses): the
   * router mints ids for other protocols' answers, keeps turns for them, and honours `store: false`.
   */
  readonly storesResponses: boolean;
}

/** The answers a codec's clients expect from endpoints the router serves without an upstream. */
export interface CodecEndpoints {
  /** The generate call's path and query for `model` (clients in process, such as `complete`). */
  generatePath(model: string, stream: boolean): string;
  /** The model list body for these model ids (created times unknown: the epoch). */
  modelList(ids: readonly string[]): unknown;
  /** The count-tokens answer body for `tokens`. */
  countTokensBody(tokens: number): unknown;
}
