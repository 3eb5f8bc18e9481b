import { LlmError, type LlmMessage } from '@llm/core';
import type { StateStore } from './config.js';
import type { OwnerQuota } from './owner-quota.js';

/**
 * Responses continuation state (`previous_response_id`) and who owns it.
 *
 * An answer a Responses client gets from another protocol's upstream carries an id the router
 * mints (`resp_` + 32 hex digits of a random UUID): upstream ids may repeat (some servers draw them from a
 * few hundred values), and one client must never continue another's conversation. The turn is
 * stored under that id with its owner, the request's `clientKeyId` (none: an open router, one
 * shared owner). A Responses upstream keeps its own state under its own ids; for those the
 * router stores only the owner of each id it passed back, when the request named a key.
 * Another owner, like a missing id, gets 404 at `previous_response_id`: the answer does not tell
 * that the id exists.
 */

/** A stored turn: the conversation so far, as the upstream must see it again. */
interface StoredTurn {
  owner: string | null;
  messages: LlmMessage[];
}

/**
 * A fresh client-visible Responses id: `resp_` + the 32 hex digits of a random UUID (122 random
 * bits). `randomUUID` draws from a pooled entropy buffer: about 0.4 µs, where `getRandomValues`
 * for 16 bytes costs 1.7 µs per call.
 */
export function mintResponseId(): string {
  return `resp_${crypto.randomUUID().replace(/-/g, '')}`;
}

/** Keeps a turn under the id the client saw, for its owner (counted by `quota`). Failures only lose the turn. */
export function saveTurn(store: StateStore, quota: OwnerQuota, id: string, owner: string | undefined, messages: LlmMessage[]): void {
  const turn: StoredTurn = { owner: owner ?? null, messages };
  const key = turnKey(id);
  void store.set(key, turn).then(
    () => quota.add(owner, key),
    () => undefined,
  );
}

/** The conversation stored under `id`, or 404 when it is missing or another owner's. */
export async function loadTurn(store: StateStore, id: string, owner: string | undefined): Promise<LlmMessage[]> {
  const value = (await store.get(turnKey(id))) as Partial<StoredTurn> | undefined;
  if (value?.owner !== (owner ?? null) || !Array.isArray(value.messages)) throw notFound(id);
  return value.messages;
}

/** The conversation stored under `id` when there is one (404 when it is another owner's), else undefined. */
export async function findTurn(store: StateStore, id: string, owner: string | undefined): Promise<LlmMessage[] | undefined> {
  const value = (await store.get(turnKey(id))) as Partial<StoredTurn> | undefined;
  if (value === undefined) return undefined;
  if (value.owner !== (owner ?? null) || !Array.isArray(value.messages)) throw notFound(id);
  return value.messages;
}

/** Records that `owner` got the Responses upstream's answer `id` (counted by `quota`). Failures only lose the record. */
export function recordOwner(store: StateStore, quota: OwnerQuota, id: string, owner: string): void {
  const key = ownerKey(id);
  void store.set(key, owner).then(
    () => quota.add(owner, key),
    () => undefined,
  );
}

/** The owner a stored turn or owner record names (for {@link OwnerQuota}). */
export function ownerOfStored(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const owner = (value as Partial<StoredTurn> | undefined)?.owner;
  return typeof owner === 'string' ? owner : undefined;
}

/** 404 unless `owner` got the Responses upstream's answer `id` through this router. */
export async function checkOwner(store: StateStore, id: string, owner: string): Promise<void> {
  if ((await store.get(ownerKey(id))) !== owner) throw notFound(id);
}

function turnKey(id: string): string {
  return `response:${id}`;
}

function ownerKey(id: string): string {
  return `owner:${id}`;
}

function notFound(id: string): LlmError {
  return new LlmError({ kind: 'not_found', message: `previous response ${id} not found`, path: 'previous_response_id' });
}
