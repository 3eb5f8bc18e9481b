import {
  embedOpaqueState,
  packOpaqueState,
  stepStream,
  type JsonObject,
  type LlmAssistantContent,
  type LlmOrigin,
  type LlmReasoningPart,
  type LlmResponse,
  type LlmStreamEvent,
  type ProtocolId,
  type StreamStep,
} from '@llm/core';
import { protocolTraits, type ProtocolRef } from './protocol-traits.js';

/**
 * Sealing foreign provider state for a client (README, "Opaque state").
 *
 * Parts decoded from the upstream carry `origin` and `signature`. When the client speaks another
 * protocol, each signature is packed with its origin into a carrier string the client will echo:
 * - clients with a native field (Claude thinking `signature` / `redacted_thinking.data`, Gemini
 *   `thoughtSignature`, Responses reasoning `encrypted_content`) get the carrier in that field;
 * - tool-call signatures (Gemini's `thoughtSignature` on a `functionCall`) ride in the tool-call
 *   id for every client but those with a native field for them (Gemini, `traits.partSignatureField`);
 * - Chat clients have no reasoning field that comes back, so the reasoning parts preceding a tool
 *   call (text included: Claude verifies the text against its signature) ride in that call's id.
 */

/** What a tool-call id carrier holds. */
export interface ToolCallCarrier {
  /** The call's own signature, if any. */
  signature?: string;
  /** Reasoning parts that preceded the call, as canonical JSON. */
  reasoning?: JsonObject[];
}

/** Seals foreign state in one choice's content, in place. */
export function sealContent(content: LlmAssistantContent[], protocol: ProtocolRef): void {
  const { id: client, traits } = protocolTraits(protocol);
  let pending: LlmReasoningPart[] = [];
  for (const part of content) {
    if (part.type === 'reasoning') {
      if (!isForeign(part.origin, part.signature, client)) continue;
      const origin = part.origin as LlmOrigin;
      if (traits.reasoningStateField) {
        part.signature = packOpaqueState({ origin, data: nativeReasoningCarrier(part) });
        delete part.origin;
      } else {
        pending.push({ ...part });
        delete part.signature;
        delete part.origin;
      }
    } else if (part.type === 'tool-call') {
      const carrier: ToolCallCarrier = {};
      let origin: LlmOrigin | undefined;
      if (isForeign(part.origin, part.signature, client)) {
        origin = part.origin as LlmOrigin;
        if (traits.partSignatureField) part.signature = packOpaqueState({ origin, data: part.signature as string });
        else {
          carrier.signature = part.signature as string;
          delete part.signature;
        }
        delete part.origin;
      }
      if (pending.length > 0) {
        origin ??= pending[0]?.origin;
        carrier.reasoning = pending.map(reasoningJson);
        pending = [];
      }
      if (origin && (carrier.signature !== undefined || carrier.reasoning)) {
        part.id = embedOpaqueState(part.id, { origin, data: carrier as JsonObject });
      }
    } else if (part.type === 'text' && isForeign(part.origin, part.signature, client)) {
      const origin = part.origin as LlmOrigin;
      if (traits.partSignatureField) part.signature = packOpaqueState({ origin, data: part.signature as string });
      else delete part.signature;
      delete part.origin;
    }
  }
}

/** Seals every choice of a response bound for `client`. */
export function sealResponse(response: LlmResponse, client: ProtocolRef): LlmResponse {
  for (const choice of response.choices) sealContent(choice.content, client);
  return response;
}

function isForeign(origin: LlmOrigin | undefined, signature: string | undefined, client: ProtocolId): boolean {
  return signature !== undefined && origin !== undefined && origin.protocol !== client;
}

/**
 * What a native reasoning field carries: the signature alone, or with the item id and text form
 * when the issuer needs them back (a Responses reasoning item is replayed by id, as summary or as
 * reasoning_text).
 */
function nativeReasoningCarrier(part: LlmReasoningPart): string | JsonObject {
  if (part.id === undefined && part.format === undefined) return part.signature as string;
  const data: JsonObject = { signature: part.signature as string };
  if (part.id !== undefined) data.id = part.id;
  if (part.format !== undefined) data.format = part.format;
  return data;
}

function reasoningJson(part: LlmReasoningPart): JsonObject {
  const json: JsonObject = { text: part.text };
  if (part.signature !== undefined) json.signature = part.signature;
  if (part.redacted) json.redacted = true;
  if (part.format) json.format = part.format;
  if (part.id !== undefined) json.id = part.id;
  return json;
}

interface PendingReasoning {
  text: string;
  signature?: string;
  origin?: LlmOrigin;
  redacted?: boolean;
  format?: 'full' | 'summary';
  id?: string;
}

/**
 * The stream form of {@link sealContent}. Reasoning text is kept per choice only for Chat clients
 * (until the next tool call carries it); memory is bounded by the reasoning of the open turn.
 */
export function sealStream(client: ProtocolRef): TransformStream<LlmStreamEvent, LlmStreamEvent> {
  return stepStream(sealStep(client));
}

/** {@link sealStream} as a stream step. */
export function sealStep(protocol: ProtocolRef): StreamStep<LlmStreamEvent, LlmStreamEvent> {
  const { id: client, traits } = protocolTraits(protocol);
  const native = traits.reasoningStateField;
  /** Open reasoning blocks by index. */
  const open = new Map<number, { choice: number; reasoning: PendingReasoning }>();
  /** Finished reasoning waiting for a tool call, per choice (Chat clients). */
  const pending = new Map<number, PendingReasoning[]>();
  return {
    transform(event, controller) {
      switch (event.type) {
        case 'block-start': {
          const block = event.block;
          const choice = event.choice ?? 0;
          if (block.kind === 'reasoning') {
            const reasoning: PendingReasoning = { text: '', origin: block.origin, signature: block.signature };
            if (block.redacted) reasoning.redacted = true;
            if (block.format) reasoning.format = block.format;
            if (block.id !== undefined) reasoning.id = block.id;
            open.set(event.index, { choice, reasoning });
            if (block.origin && block.origin.protocol !== client) {
              const copy = { ...block };
              delete copy.origin;
              if (block.signature !== undefined && native) {
                copy.signature = packOpaqueState({ origin: block.origin, data: nativeReasoningCarrier({ type: 'reasoning', ...reasoning }) });
              } else delete copy.signature;
              controller.enqueue({ ...event, block: copy });
              return;
            }
          } else if (block.kind === 'tool_call') {
            const waiting = native ? [] : (pending.get(choice) ?? []);
            pending.delete(choice);
            const foreign = waiting.filter((item) => isForeign(item.origin, item.signature, client));
            const carrier: ToolCallCarrier = {};
            let origin: LlmOrigin | undefined;
            const copy = { ...block };
            if (isForeign(block.origin, block.signature, client)) {
              origin = block.origin;
              delete copy.origin;
              if (traits.partSignatureField) copy.signature = packOpaqueState({ origin: origin as LlmOrigin, data: block.signature as string });
              else {
                carrier.signature = block.signature as string;
                delete copy.signature;
              }
            }
            if (foreign.length > 0) {
              origin ??= foreign[0]?.origin;
              carrier.reasoning = foreign.map((item) => reasoningJson({ type: 'reasoning', ...item }));
            }
            if (origin && (carrier.signature !== undefined || carrier.reasoning)) {
              copy.id = embedOpaqueState(block.id, { origin, data: carrier as JsonObject });
            }
            controller.enqueue({ ...event, block: copy });
            return;
          }
          break;
        }
        case 'reasoning-delta': {
          const entry = open.get(event.index);
          if (entry && !native) entry.reasoning.text += event.text;
          break;
        }
        case 'reasoning-signature': {
          const entry = open.get(event.index);
          if (entry) {
            entry.reasoning.signature = event.signature;
            if (event.origin) entry.reasoning.origin = event.origin;
          }
          const origin = event.origin ?? entry?.reasoning.origin;
          if (isForeign(origin, event.signature, client)) {
            if (!native) return;
            controller.enqueue({
              type: 'reasoning-signature',
              index: event.index,
              signature: packOpaqueState({
                origin: origin as LlmOrigin,
                data: entry ? nativeReasoningCarrier({ type: 'reasoning', ...entry.reasoning }) : event.signature,
              }),
            });
            return;
          }
          break;
        }
        case 'block-end': {
          const entry = open.get(event.index);
          if (entry) {
            open.delete(event.index);
            if (!native) pending.set(entry.choice, [...(pending.get(entry.choice) ?? []), entry.reasoning]);
          }
          break;
        }
        case 'finish':
          pending.delete(event.choice ?? 0);
          break;
        default:
          break;
      }
      controller.enqueue(event);
    },
  };
}
