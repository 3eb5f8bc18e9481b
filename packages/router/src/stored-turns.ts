import {
  LlmStreamAccumulator,
  isJsonObject,
  type Codec,
  type LlmMessage,
  type LlmRequest,
  type LlmResponse,
  type LlmStreamEvent,
  type LlmUsage,
} from '@llm/core';
import type { RouterRuntime } from './router-runtime.js';
import { checkOwner, findTurn, loadTurn, recordOwner, saveTurn } from './response-state.js';

/**
 * Stored turns: a client whose protocol stores answers by id (Responses, `traits.storesResponses`)
 * continues a conversation by `previous_response_id`. Against an upstream of another protocol the
 * router keeps each turn under the id the client saw and replays it; an upstream that stores
 * answers itself keeps them, and the router only checks who may continue them.
 */

/** The conversation a call continues, if any: loaded once, for the first upstream that needs it. */
export class Continuation {
  private history: Promise<LlmMessage[]> | undefined;
  private kept: Promise<LlmMessage[] | undefined> | undefined;

  constructor(
    private readonly runtime: RouterRuntime,
    /** The `previous_response_id` the client sent. */
    private readonly previousResponseId: string | undefined,
    /** The call's `clientKeyId`. */
    private readonly owner: string | undefined,
  ) {}

  /** The turns to replay before the request's own, or undefined (checked: 404 before anything is sent). */
  async turnsFor(target: Codec): Promise<LlmMessage[] | undefined> {
    const { previousResponseId, owner } = this;
    if (previousResponseId === undefined) return undefined;
    if (!target.traits.storesResponses) return await (this.history ??= loadTurn(this.runtime.store, previousResponseId, owner));
    // A turn the router kept (an answer whose id it minted: another protocol's, the MCP loop's) is
    // replayed to an upstream that stores answers too: that upstream never saw the id.
    const kept = await (this.kept ??= findTurn(this.runtime.store, previousResponseId, owner));
    if (kept) return kept;
    // A Responses upstream holds the conversation under its own id; only its owner may continue it.
    if (owner !== undefined) await checkOwner(this.runtime.store, previousResponseId, owner);
    return undefined;
  }
}

/**
 * Collects usage and, given the canonical request of a turn to keep (see `keptRequest`), stores
 * the turn for `previous_response_id`.
 */
export function rememberer(runtime: RouterRuntime, request: LlmRequest | undefined, answer: AnswerOwnership) {
  const { store, quota, config } = runtime;
  let usage: LlmUsage | undefined;
  const storing = request !== undefined;
  const accumulator = storing ? new LlmStreamAccumulator() : undefined;
  const save = (response: LlmResponse): void => {
    const canonical = request;
    const choice = response.choices[0];
    if (!canonical || !choice) return;
    const messages: LlmMessage[] = [...canonical.messages, { role: 'assistant', content: choice.content }];
    saveTurn(store, quota, answer.id ?? response.id, answer.owner, messages);
  };
  const owns = (id: unknown): void => {
    if (answer.recordUpstreamIds && answer.owner !== undefined && typeof id === 'string') recordOwner(store, quota, id, answer.owner);
  };
  return {
    usage: () => usage,
    onEvent(event: LlmStreamEvent): void {
      if (event.type === 'start') owns(event.id);
      if (event.type === 'usage') usage = event.usage;
      else if (event.type === 'finish' && event.usage) usage = event.usage;
      if (accumulator) {
        accumulator.push(event);
        if (event.type === 'finish') {
          try {
            save(accumulator.response());
          } catch {
            // An incomplete stream stores nothing.
          }
        }
      }
    },
    /** `known`: the usage of a canonical response the bridge already decoded (no second decode for it). */
    onResponse(json: unknown, codec: Codec, known?: LlmUsage): void {
      if (isJsonObject(json)) owns(json.id);
      if (!config.hooks?.onRequestEnd && !storing) return;
      if (known && !storing) {
        usage = known;
        return;
      }
      try {
        const response = codec.response.decode(json);
        usage = response.usage;
        if (storing) save(response);
      } catch {
        // Usage is best effort; the client already has its answer.
      }
    },
  };
}

/** Whose answer this is, and under which id (see response-state.ts). */
export interface AnswerOwnership {
  /** The id minted for the client, when the router mints one. */
  id?: string;
  /** The request's `clientKeyId`. */
  owner?: string;
  /** Record the owner of the upstream's own ids (a Responses upstream, a kept answer). */
  recordUpstreamIds: boolean;
}

/**
 * The canonical request to store with its answer, or undefined: a Responses client of another
 * upstream gets its turns back by `previous_response_id` (a Responses upstream keeps its own).
 */
export function keptRequest(client: Codec, upstream: Codec, request: LlmRequest | undefined): LlmRequest | undefined {
  return client.traits.storesResponses && !upstream.traits.storesResponses ? request : undefined;
}
