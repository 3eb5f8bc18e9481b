import {
  LlmError,
  LlmStreamAccumulator,
  SSE_HEADERS,
  chunksOf,
  responseToEvents,
  sumUsage,
  type HttpRequestMatch,
  type LlmAssistantContent,
  type LlmMcpAssistantPart,
  type LlmMessage,
  type LlmRequest,
  type LlmResponse,
  type LlmStreamEvent,
  type LlmTool,
  type LlmToolCallPart,
  type LlmToolResultPart,
  type LlmUsage,
  type LlmWarning,
} from '@llm/core';
import { emptyChunks, isJsonAnswer, readJson, streamFailureFields, withRetrievable } from '../answer-reply.js';
import type { Bridge } from '../bridge.js';
import type { HeldBody } from '../client-body.js';
import type { UpstreamResponse } from '../config.js';
import { clientFacingError } from '../failures.js';
import type { RouterReply, RouterRequest } from '../reply.js';
import type { RouterCall } from '../request-record.js';
import { saveTurn } from '../response-state.js';
import type { RouterRuntime } from '../router-runtime.js';
import { DEFAULT_STREAM_IDLE_TIMEOUT_MS, watchChunks, type RequestDeadline } from '../timeouts.js';
import {
  attemptBridge,
  encodeAttempt,
  readErrorBody,
  sendAttempt,
  upstreamErrorReply,
  type AttemptExtras,
  type AttemptTarget,
  type EncodedAttempt,
} from '../upstream-attempts.js';
import { isOkStatus } from '../upstream-call.js';
import { upstreamHeaders } from '../upstream-target.js';
import { McpCaller, TOO_MANY_CALLS_OUTPUT, callParts, functionResult } from './mcp-calls.js';
import { answeredApprovals, lowerMcpHistory, needsApproval } from './mcp-history.js';
import { DEFAULT_MCP_MAX_TURNS, DEFAULT_MCP_TIME_BUDGET_MS, MAX_MCP_CALLS_PER_TURN, type McpConfig, type McpToolOutput } from './mcp-host.js';
import { McpToolset, mintId, type McpOfferedTool, type McpServerUse } from './mcp-toolset.js';
import { TurnBlocks, type BlockNumbering } from './turn-blocks.js';

/** What the model is told of a call the client did not approve. */
export const DENIED_OUTPUT = 'The user did not approve this tool call.';

/** What the model is told of an approved call whose tool the server no longer offers. */
export const UNAVAILABLE_OUTPUT = 'This tool is no longer available.';

/** What the MCP loop needs of the generate call that starts it. */
export interface McpLoopInput {
  request: RouterRequest;
  match: HttpRequestMatch;
  held: HeldBody;
  /** The upstream, and whether it runs the request's own MCP servers (the route may say no). */
  target: AttemptTarget & { model: string | undefined; upstreamHostsMcp: boolean };
  /** The MCP servers the router runs for this request. */
  servers: McpServerUse[];
  /** The client's tools, whose names the MCP functions must not take. */
  tools: readonly LlmTool[] | undefined;
  /** The client's messages (without stored history), where approval responses come. */
  messages: readonly LlmMessage[];
  extras: AttemptExtras;
}

/**
 * A generate call whose request has MCP servers the router runs (see the README, "MCP"): the
 * servers' tools listed (a failure is the client's error before any upstream call), approvals the
 * client answered acted on, then upstream turns until the model answers without an MCP call,
 * one answer to the client (JSON or one stream) with the MCP parts a hosted-MCP provider sends.
 */
export async function runMcpLoop(runtime: RouterRuntime, call: RouterCall, input: McpLoopInput): Promise<RouterReply> {
  const { calls } = runtime;
  const mcp = runtime.config.mcp as McpConfig;
  const context = { signal: call.deadline, clientKeyId: input.request.clientKeyId };
  const caller = new McpCaller(mcp.host, call.record, context);
  let loop: McpLoop;
  let first: Sent;
  try {
    const toolset = await McpToolset.list(input.servers, toolNames(input.tools), mcp.host, context);
    loop = new McpLoop(runtime, call, input, toolset, caller);
    await loop.actOnApprovals([...(input.extras.history ?? []), ...input.messages]);
    first = await loop.send();
  } catch (error) {
    return calls.respondError(call, error);
  }
  const { response, outgoing } = first;
  if (!isOkStatus(response.status)) {
    const errorBody = await readErrorBody(response);
    const decoded = input.target.upstreamCodec.error.decode(response.status, errorBody, response.headers);
    return upstreamErrorReply(runtime, call, { response, errorBody, decoded, answers: outgoing.answers });
  }
  call.record.stream = outgoing.clientStream;
  const events = loop.answerEvents(first);
  if (outgoing.clientStream) {
    const onEnd = () => calls.finish(call, { status: 200, usage: loop.usage, ...streamFailureFields(loop.failure) });
    const chunks = loop.via.encodeStream(events, { includeUsage: outgoing.includeUsage, onEnd });
    return withRetrievable(calls.respond(call, chunks, 200, { ...SSE_HEADERS }), outgoing.stored);
  }
  const accumulator = new LlmStreamAccumulator();
  let answer: LlmResponse;
  let body: unknown;
  try {
    for await (const event of events) accumulator.push(event);
    answer = accumulator.response();
    body = loop.via.encodeResponse(answer);
  } catch (error) {
    return calls.respondError(call, error, loop.via);
  }
  calls.finish(call, { status: 200, usage: loop.usage });
  return withRetrievable(calls.respond(call, JSON.stringify(body), 200, { 'content-type': 'application/json' }), outgoing.stored);
}

/** One upstream call of the loop: what was sent and the answer's head. */
interface Sent {
  outgoing: EncodedAttempt;
  response: UpstreamResponse;
}

/** An MCP call the model made in a turn, and the tool it names. */
interface ModelCall {
  call: LlmToolCallPart;
  offered: McpOfferedTool;
}

/** The loop's state for one request. */
class McpLoop {
  /** The attempt's bridge: every turn's request goes through it, rewritten by the loop. */
  readonly via: Bridge;
  /** Summed over the turns so far. */
  usage: LlmUsage | undefined;
  /** The error the answer ended with, if it did. */
  failure: LlmError | undefined;
  /** The loop's own turns (the model's calls and their results), after the request's messages. */
  private readonly turnsSoFar: LlmMessage[] = [];
  /** The request's messages as the client's protocol has them (MCP parts kept): what a stored turn keeps. */
  private clientMessages: LlmMessage[] | undefined;
  /** Results of the approval requests acted on before the first turn, by request id. */
  private readonly approvalResults = new Map<string, LlmToolResultPart>();
  /** MCP parts the answer opens with: the tool lists, then approved calls that ran. */
  private readonly openingParts: LlmMcpAssistantPart[];
  private readonly servedLabels: Set<string>;
  private turns = 0;
  /** False when the client asked for no storage (a Responses `store: false`). */
  private stored = true;
  private readonly startedAt = Date.now();
  private readonly maxTurns: number;
  private readonly timeBudgetMs: number;
  private readonly numbering: BlockNumbering = { next: 0 };

  constructor(
    private readonly runtime: RouterRuntime,
    private readonly call: RouterCall,
    private readonly input: McpLoopInput,
    private readonly toolset: McpToolset,
    private readonly caller: McpCaller,
  ) {
    const { name, upstream, upstreamCodec } = input.target;
    const mcp = runtime.config.mcp as McpConfig;
    this.maxTurns = mcp.maxTurns ?? DEFAULT_MCP_MAX_TURNS;
    this.timeBudgetMs = mcp.timeBudgetMs ?? DEFAULT_MCP_TIME_BUDGET_MS;
    this.openingParts = [...toolset.listings];
    this.servedLabels = new Set(input.servers.map((use) => use.server.name));
    // Each turn translates the request again: a warning is reported once, not once per turn.
    const seen = new Set<string>();
    const warn = (warning: LlmWarning): void => {
      const key = `${warning.code}@${warning.path}@${warning.message}`;
      if (seen.has(key)) return;
      seen.add(key);
      call.warnings.add(warning);
    };
    this.via = attemptBridge(runtime, call, name, upstream, upstreamCodec, {
      ...input.extras,
      rewrite: (request) => this.rewrite(request),
      ownAnswerId: true,
      warn,
    });
  }

  /** True when the router runs `server`'s calls (an upstream hosting MCP keeps the client's own). */
  private runs(server: string): boolean {
    return !this.input.target.upstreamHostsMcp || this.servedLabels.has(server);
  }

  /**
   * Approval requests the client answered in this request: approved ones run now (their call and
   * result open the answer), denied ones tell the model so; both reach the model in place of the
   * request.
   */
  async actOnApprovals(messages: readonly LlmMessage[]): Promise<void> {
    const answered = answeredApprovals(messages).filter(({ request }) => this.runs(request.server));
    // A client sending its whole conversation may approve any number of requests: at most
    // MAX_MCP_CALLS_PER_TURN run, as of one turn (the count is taken before the first await).
    let started = 0;
    await Promise.all(
      answered.map(async ({ request, approve }) => {
        const functionName = this.toolset.functionNameOf(request.server, request.name);
        const offered = this.toolset.find(request.server, request.name);
        let output: McpToolOutput;
        if (!approve) output = { content: DENIED_OUTPUT, isError: true };
        else if (!offered) output = { content: UNAVAILABLE_OUTPUT, isError: true };
        else {
          output = started++ < MAX_MCP_CALLS_PER_TURN ? await this.caller.run(offered, request.arguments) : this.caller.refuse(offered, TOO_MANY_CALLS_OUTPUT);
          this.openingParts.push(...callParts(mintId('mcp_'), offered, request.arguments, output, request.id));
        }
        this.approvalResults.set(request.id, functionResult(request.id, functionName, output));
      }),
    );
  }

  /** Sends the next turn. */
  async send(): Promise<Sent> {
    this.turns++;
    const { held, match, target, request } = this.input;
    const headers = upstreamHeaders(target.upstream, target.upstreamCodec, this.call.clientCodec.id, request.headers);
    const outgoing = encodeAttempt(this.via, held, match, target.model, headers);
    const response = await sendAttempt(this.runtime, this.call, target, outgoing);
    return { outgoing, response };
  }

  /** The request of a turn: MCP history lowered, MCP servers offered as functions, the loop's turns added. */
  private rewrite(request: LlmRequest): LlmRequest {
    this.clientMessages ??= request.messages;
    const lowered = lowerMcpHistory(request.messages, {
      functionNameOf: (server, tool) => this.toolset.functionNameOf(server, tool),
      approvalResults: this.approvalResults,
      runs: (server) => this.runs(server),
    });
    request.messages = [...lowered, ...this.turnsSoFar];
    const tools = [...(request.tools ?? []).filter((tool) => tool.type !== 'mcp' || !this.runs(tool.name)), ...this.toolset.functionTools()];
    if (tools.length > 0) request.tools = tools;
    else delete request.tools;
    const choice = request.toolChoice;
    // A forced call forces every turn: after the first, the model may answer.
    if (this.turns > 1 && choice?.type === 'required') request.toolChoice = { type: 'auto' };
    if (choice?.type === 'allowed') {
      request.toolChoice = { ...choice, names: [...choice.names, ...this.toolset.functionTools().map((tool) => tool.name)] };
      if (this.turns > 1) request.toolChoice.mode = 'auto';
    }
    return request;
  }

  /**
   * The client's answer as canonical events: one `start`, the opening MCP parts, every turn's
   * blocks renumbered, each MCP call's parts the moment it ends, one `finish` with the summed usage.
   */
  async *answerEvents(first: Sent): AsyncGenerator<LlmStreamEvent> {
    this.stored = first.outgoing.stored;
    const kept = new LlmStreamAccumulator();
    const observe = (event: LlmStreamEvent): LlmStreamEvent => {
      kept.push(event);
      if (event.type === 'finish') this.keep(kept);
      if (event.type === 'error') this.failure = event.error;
      return event;
    };
    for await (const event of this.turnEvents(first)) yield observe(event);
  }

  private async *turnEvents(first: Sent): AsyncGenerator<LlmStreamEvent> {
    let sent = first;
    let started = false;
    for (;;) {
      const turn = new TurnBlocks(this.numbering, (name) => this.toolset.toolOf(name) !== undefined);
      for await (const event of this.upstreamEvents(sent)) {
        if (event.type === 'error') {
          yield event;
          return;
        }
        if (event.type === 'start' && !started) {
          started = true;
          yield event;
          for (const part of this.openingParts) yield* this.partBlock(part);
        }
        yield* turn.take(event);
      }
      this.usage = sumUsage(this.usage, turn.usage);
      let content: LlmAssistantContent[];
      try {
        content = turn.content();
      } catch (error) {
        yield this.errorEvent(error);
        return;
      }
      const modelCalls = this.mcpCallsOf(content);
      if (modelCalls.length === 0) {
        yield* turn.releaseCalls();
        const finish = turn.finish;
        yield finish ? { ...finish, usage: this.usage } : { type: 'finish', reason: 'stop', usage: this.usage };
        return;
      }
      const waiting = modelCalls.filter(({ offered }) => needsApproval(offered.server, offered.tool.name));
      const running = modelCalls.filter((modelCall) => !waiting.includes(modelCall));
      const results = new Map<string, LlmToolResultPart>();
      try {
        for await (const { modelCall, output } of this.runCalls(running)) {
          results.set(modelCall.call.id, functionResult(modelCall.call.id, modelCall.call.name, output));
          for (const part of callParts(modelCall.call.id, modelCall.offered, modelCall.call.arguments, output)) yield* this.partBlock(part);
        }
      } catch (error) {
        yield this.errorEvent(error);
        return;
      }
      for (const { call, offered } of waiting) {
        yield* this.partBlock({
          type: 'mcp-approval-request',
          id: mintId('mcpr_'),
          server: offered.server.name,
          name: offered.tool.name,
          arguments: call.arguments,
        });
      }
      const clientCalls = turn.releaseCalls();
      if (waiting.length > 0 || clientCalls.length > 0) {
        // The client acts next (approves, or runs its own calls): the loop resumes from its answer.
        yield* clientCalls;
        yield { type: 'finish', reason: 'tool_calls', usage: this.usage };
        return;
      }
      this.turnsSoFar.push({ role: 'assistant', content }, { role: 'tool', content: running.map(({ call }) => results.get(call.id) as LlmToolResultPart) });
      if (this.turns >= this.maxTurns || Date.now() - this.startedAt >= this.timeBudgetMs) {
        // Past a bound: the answer ends as a paused turn (Responses `incomplete`, Claude `pause_turn`).
        yield { type: 'finish', reason: 'pause', usage: this.usage };
        return;
      }
      try {
        sent = await this.send();
      } catch (error) {
        yield this.errorEvent(error);
        return;
      }
      if (!isOkStatus(sent.response.status)) {
        const errorBody = await readErrorBody(sent.response);
        yield { type: 'error', error: this.input.target.upstreamCodec.error.decode(sent.response.status, errorBody, sent.response.headers) };
        return;
      }
    }
  }

  /** The MCP function calls among a turn's content. */
  private mcpCallsOf(content: readonly LlmAssistantContent[]): ModelCall[] {
    const out: ModelCall[] = [];
    for (const part of content) {
      if (part.type !== 'tool-call') continue;
      const offered = this.toolset.toolOf(part.name);
      if (offered) out.push({ call: part, offered });
    }
    return out;
  }

  /** Runs a turn's calls at once (at most `MAX_MCP_CALLS_PER_TURN`; the model is told of the rest), yielding each as it ends. */
  private async *runCalls(modelCalls: readonly ModelCall[]): AsyncGenerator<{ modelCall: ModelCall; output: McpToolOutput }> {
    const pending = new Map(
      modelCalls.map((modelCall, index) => {
        const { offered, call } = modelCall;
        const output =
          index < MAX_MCP_CALLS_PER_TURN ? this.caller.run(offered, call.arguments) : Promise.resolve(this.caller.refuse(offered, TOO_MANY_CALLS_OUTPUT));
        return [index, output.then((result) => ({ index, modelCall, output: result }))] as const;
      }),
    );
    // A failure ends the answer; the calls still running must not become unhandled rejections.
    for (const promise of pending.values()) promise.catch(() => undefined);
    while (pending.size > 0) {
      const done = await Promise.race(pending.values());
      pending.delete(done.index);
      yield done;
    }
  }

  /** One turn's upstream answer as canonical events, ending with a finish or an error. */
  private async *upstreamEvents({ response, outgoing }: Sent): AsyncGenerator<LlmStreamEvent> {
    const deadline = this.call.deadline as RequestDeadline;
    const { upstream, upstreamCodec } = this.input.target;
    if (outgoing.upstreamStreams && !isJsonAnswer(response)) {
      const chunks = watchChunks(
        chunksOf(response.chunks?.() ?? response.body ?? emptyChunks()),
        upstream.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
        deadline,
      );
      yield* outgoing.answers.decodeStream(chunks);
      return;
    }
    let events: LlmStreamEvent[];
    try {
      events = responseToEvents(outgoing.answers.decode(await readJson(response, deadline, upstreamCodec.id)));
    } catch (error) {
      events = [this.errorEvent(error)];
    }
    yield* events;
  }

  /** An MCP part as a complete block, numbered after the answer's blocks so far. */
  private *partBlock(part: LlmMcpAssistantPart): Generator<LlmStreamEvent> {
    const index = this.numbering.next++;
    yield { type: 'block-start', index, block: { kind: 'part', part } };
    yield { type: 'block-end', index };
  }

  /** An error ending the answer, as the client may see it (internal detail to the record only). */
  private errorEvent(error: unknown): LlmStreamEvent {
    const { error: shown, detail } = clientFacingError(error, this.call.requestId);
    if (detail === undefined) return { type: 'error', error: shown };
    this.call.record.errorDetail = detail;
    // Without its cause: the detail is recorded, and no later step words the error again.
    const { kind, status, message, path, retryable, code } = shown;
    return { type: 'error', error: new LlmError({ kind, status, message, path, retryable, code }) };
  }

  /**
   * Stores the finished answer for `previous_response_id` when the client continues answers by id:
   * whatever the upstream, since no upstream stored the loop's answer as the client saw it.
   */
  private keep(answer: LlmStreamAccumulator): void {
    const id = this.input.extras.answerId;
    if (id === undefined || !this.stored || !this.clientMessages) return;
    let response: LlmResponse;
    try {
      response = answer.response();
    } catch {
      return;
    }
    const choice = response.choices[0];
    if (!choice) return;
    const { store, quota } = this.runtime;
    saveTurn(store, quota, id, this.input.request.clientKeyId, [...this.clientMessages, { role: 'assistant', content: choice.content }]);
  }
}

/** Names of the client's tools (functions and others), which MCP functions must not take. */
function toolNames(tools: readonly LlmTool[] | undefined): string[] {
  const names: string[] = [];
  for (const tool of tools ?? []) if ('name' in tool && typeof tool.name === 'string') names.push(tool.name);
  return names;
}
