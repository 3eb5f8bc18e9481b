import type { LlmAudioPart, LlmFilePart, LlmImagePart, LlmMessage, LlmRequest, LlmToolMessage, LlmToolResultPart, LlmUserMessage, ProtocolId } from '@llm/core';
import { reportLoss, type CodecContext } from '@llm/core';
import { protocolTraits, type ProtocolRef } from './protocol-traits.js';

/** The output of the result supplied for a call the history never answered. */
export const NO_RESULT_OUTPUT = 'no result was returned';

/**
 * Request-side canonical fixes for a target protocol, applied before the upstream codec encodes,
 * each as the target codec's `traits` ask:
 * - stop sequences cut to the target's limit (`dropped-field`),
 * - `n` > 1 sent as 1 where the target returns one candidate (`dropped-field`),
 * - consecutive same-role user / assistant turns merged where the target demands alternation
 *   (Claude, Gemini),
 * - tool results reordered to follow the assistant turn that called them,
 * - a call left unanswered given a result saying so, where the target requires one (`defaulted`).
 * An output-token default is not one of them: a target that requires a limit has its codec's
 * encoder write it, where the rest of the request (a thinking budget) is known.
 */
export function fixRequestForTarget(request: LlmRequest, protocol: ProtocolRef, context?: CodecContext): LlmRequest {
  const { id: target, traits } = protocolTraits(protocol);
  const limit = traits.maxStopSequences;
  if (limit !== undefined && request.stop && request.stop.length > limit) {
    reportLoss(context, {
      code: 'dropped-field',
      path: `stop[${limit}]`,
      message: `${target} accepts at most ${limit} stop sequences; ${request.stop.length - limit} dropped`,
    });
    request.stop = request.stop.slice(0, limit);
  }
  if (!traits.multipleCandidates && request.candidateCount !== undefined && request.candidateCount > 1) {
    reportLoss(context, {
      code: 'dropped-field',
      path: 'n',
      message: `${target} returns one candidate per request; n=${request.candidateCount} sent as 1`,
    });
    delete request.candidateCount;
  }
  fixToolChoice(request, protocol, context);
  request.messages = orderToolResults(request.messages);
  const results = traits.everyCallAnswered;
  if (results) request.messages = answerEveryCall(request.messages, target, results.errorFlag, context);
  if (!traits.mediaInToolResults) request.messages = moveToolResultMedia(request.messages, context);
  if (traits.alternatingTurns) {
    request.messages = mergeSameRoleTurns(dropEmptyContent(midConversationSystemToUser(request.messages, context)));
  }
  return request;
}

/**
 * Keeps the tool choice valid for what the target will receive, which rejects a choice it cannot
 * honour with a 400:
 * - a choice naming a tool the target drops (another protocol's provider tool) or that is not in
 *   the tools at all falls back to `auto` (`dropped-field`); `allowed` keeps the names that remain;
 * - `none` with `parallelToolCalls: false` loses the parallel flag on Claude, whose `none` choice
 *   has no `disable_parallel_tool_use` (no call will be made, so nothing is lost).
 */
export function fixToolChoice(request: LlmRequest, protocol: ProtocolRef, context?: CodecContext): void {
  const choice = request.toolChoice;
  if (!choice) return;
  const { id: target, traits } = protocolTraits(protocol);
  if (choice.type === 'none') {
    if (!traits.parallelFlagWithNoneChoice) delete request.parallelToolCalls;
    return;
  }
  const sent = new Set((request.tools ?? []).filter((tool) => tool.type !== 'provider' || tool.protocol === target).map((tool) => tool.name));
  const drop = (message: string) => {
    reportLoss(context, { code: 'dropped-field', path: 'tool_choice', message });
    if (sent.size === 0) delete request.toolChoice;
    else request.toolChoice = { type: 'auto' };
  };
  if (choice.type === 'tool' && !sent.has(choice.name)) {
    drop(`tool_choice names ${JSON.stringify(choice.name)}, which ${target} does not receive; sent as auto`);
  } else if (choice.type === 'allowed') {
    const names = choice.names.filter((name) => sent.has(name));
    if (names.length === 0) drop(`none of the allowed tools reach ${target}; sent as auto`);
    else if (names.length < choice.names.length) {
      reportLoss(context, { code: 'dropped-field', path: 'tool_choice', message: `allowed tools not sent to ${target} left out of tool_choice` });
      request.toolChoice = { ...choice, names };
    }
  }
}

/**
 * Claude and Gemini take system instructions only before the conversation: a system message after
 * the first turn becomes user text in place (it keeps its position, loses its role), reported as
 * `lossy-conversion`. Leading system messages stay for the codec's system field.
 */
export function midConversationSystemToUser(messages: LlmMessage[], context?: CodecContext): LlmMessage[] {
  const firstTurn = messages.findIndex((message) => message.role !== 'system');
  if (firstTurn < 0) return messages;
  // The common case, no system message after the first turn, returns the array as it is.
  if (!messages.some((message, index) => index > firstTurn && message.role === 'system')) return messages;
  return messages.map((message, index) => {
    if (index < firstTurn || message.role !== 'system') return message;
    reportLoss(context, {
      code: 'lossy-conversion',
      path: `messages[${index}]`,
      message: 'a system message in the middle of the conversation is sent as user text',
    });
    return { role: 'user', content: message.content.map((part) => ({ type: 'text' as const, text: part.text })) };
  });
}

/**
 * Claude and Gemini reject empty text blocks and messages without content (a 400):
 * empty text parts go, and so do user / assistant messages left with nothing. They carry nothing,
 * so nothing is reported.
 */
export function dropEmptyContent(messages: LlmMessage[]): LlmMessage[] {
  // Copied only from the first message that changes: most requests have nothing to drop.
  let out: LlmMessage[] | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as LlmMessage;
    const kept = message.role === 'user' || message.role === 'assistant' ? withoutEmptyText(message) : message;
    if (kept !== message) out ??= messages.slice(0, index);
    if (out && kept) out.push(kept);
  }
  return out ?? messages;
}

function isEmptyText(part: { type: string; text?: string }): boolean {
  return part.type === 'text' && part.text === '';
}

/** The message without its empty text parts: itself when it has none, undefined when nothing is left. */
function withoutEmptyText(message: LlmMessage): LlmMessage | undefined {
  const parts = message.content as Array<{ type: string; text?: string }>;
  if (parts.length > 0 && !parts.some(isEmptyText)) return message;
  const content = parts.filter((part) => !isEmptyText(part));
  return content.length === 0 ? undefined : ({ ...message, content } as LlmMessage);
}

/**
 * Chat tool messages hold text only: images and files inside tool results move to a user message
 * right after the tool messages of that turn (`lossy-conversion`), with a text note naming the call.
 */
export function moveToolResultMedia(messages: LlmMessage[], context?: CodecContext): LlmMessage[] {
  const out: LlmMessage[] = [];
  let carried: LlmUserMessage['content'] = [];
  const flush = () => {
    if (carried.length > 0) out.push({ role: 'user', content: carried });
    carried = [];
  };
  messages.forEach((message, messageIndex) => {
    if (message.role !== 'tool') {
      flush();
      out.push(message);
      return;
    }
    const content = message.content.map((part, partIndex) => {
      if (part.type !== 'tool-result' || typeof part.content === 'string') return part;
      const media = part.content.filter(
        (item): item is LlmImagePart | LlmFilePart | LlmAudioPart => item.type === 'image' || item.type === 'file' || item.type === 'audio',
      );
      if (media.length === 0) return part;
      reportLoss(context, {
        code: 'lossy-conversion',
        path: `messages[${messageIndex}].content[${partIndex}]`,
        message: 'media in a tool result moved to a user message (Chat tool messages hold text only)',
      });
      carried.push({ type: 'text', text: `Attachments of tool result ${part.toolCallId}:` });
      carried.push(...media);
      return { ...part, content: part.content.filter((item) => !(media as unknown[]).includes(item)) };
    });
    out.push(content.every((part, index) => part === message.content[index]) ? message : { ...message, content });
  });
  flush();
  return out;
}

/** Merges consecutive user (or assistant) messages into one, keeping every part in order. */
export function mergeSameRoleTurns(messages: LlmMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (const message of messages) {
    const previous = out[out.length - 1];
    if (previous && previous.role === message.role && (message.role === 'user' || message.role === 'assistant')) {
      const merged = { ...previous, content: [...previous.content, ...message.content] } as LlmMessage;
      delete (merged as { stringContent?: boolean }).stringContent;
      out[out.length - 1] = merged;
    } else out.push(message);
  }
  return out;
}

/**
 * Moves tool messages so each directly follows the assistant turn holding the calls it answers
 * (clients sometimes put a user note between a call and its result). Results within one turn are
 * ordered like the calls.
 */
export function orderToolResults(messages: LlmMessage[]): LlmMessage[] {
  const callOwner = new Map<string, number>();
  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'tool-call') callOwner.set(part.id, index);
    }
  });
  if (callOwner.size === 0 || toolResultsInOrder(messages, callOwner)) return messages;
  const attached = new Map<number, LlmToolMessage[]>();
  const rest: Array<LlmMessage | number> = [];
  messages.forEach((message, index) => {
    if (message.role === 'assistant') rest.push(message, index);
    else if (message.role === 'tool') {
      const first = message.content.find((part) => part.type === 'tool-result');
      const owner = first && first.type === 'tool-result' ? callOwner.get(first.toolCallId) : undefined;
      if (owner === undefined) rest.push(message);
      else attached.set(owner, [...(attached.get(owner) ?? []), message]);
    } else rest.push(message);
  });
  const out: LlmMessage[] = [];
  for (const item of rest) {
    if (typeof item !== 'number') out.push(item);
    else out.push(...inCallOrder(attached.get(item) ?? [], messages[item] as LlmMessage));
  }
  return out;
}

/**
 * Gives every tool call a result right after its turn (after the results it has, in call order):
 * a history may go on past a call it never answered, which Gemini accepts and Claude, Chat and
 * Responses reject. The result supplied says {@link NO_RESULT_OUTPUT}, flagged as an error where
 * the target has the flag, and is reported as `defaulted` at the call's path. Expects the results
 * already moved behind their calls ({@link orderToolResults}).
 */
export function answerEveryCall(messages: LlmMessage[], target: ProtocolId, errorFlag: boolean, context?: CodecContext): LlmMessage[] {
  // Copied only from the first turn that needs a result: most histories answer every call.
  let out: LlmMessage[] | undefined;
  let index = 0;
  while (index < messages.length) {
    const turn = messages[index] as LlmMessage;
    const turnIndex = index++;
    out?.push(turn);
    if (turn.role !== 'assistant' || !turn.content.some((part) => part.type === 'tool-call')) continue;
    const firstResult = index;
    const answered = new Set<string>();
    for (; index < messages.length && (messages[index] as LlmMessage).role === 'tool'; index++) {
      for (const part of (messages[index] as LlmToolMessage).content) if (part.type === 'tool-result') answered.add(part.toolCallId);
    }
    const supplied: LlmToolMessage[] = [];
    turn.content.forEach((part, partIndex) => {
      if (part.type !== 'tool-call' || answered.has(part.id)) return;
      reportLoss(context, {
        code: 'defaulted',
        path: `messages[${turnIndex}].content[${partIndex}]`,
        message: `tool call ${part.id} (${part.name}) has no result, which ${target} requires; sent with the result ${JSON.stringify(NO_RESULT_OUTPUT)}`,
      });
      const result: LlmToolResultPart = { type: 'tool-result', toolCallId: part.id, toolName: part.name, content: NO_RESULT_OUTPUT };
      if (errorFlag) result.isError = true;
      supplied.push({ role: 'tool', content: [result] });
    });
    const given = messages.slice(firstResult, index) as LlmToolMessage[];
    if (supplied.length === 0) {
      out?.push(...given);
      continue;
    }
    out ??= messages.slice(0, firstResult);
    out.push(...inCallOrder([...given, ...supplied], turn));
  }
  return out ?? messages;
}

/**
 * True when every tool message already follows the turn whose call it answers, after that turn's
 * other results only, in call order: what well-behaved clients send, left as it is.
 */
function toolResultsInOrder(messages: LlmMessage[], callOwner: Map<string, number>): boolean {
  let turn = -1;
  let lastCall = -1;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as LlmMessage;
    if (message.role === 'assistant') {
      turn = index;
      lastCall = -1;
      continue;
    }
    const first = message.role === 'tool' ? message.content.find((part) => part.type === 'tool-result') : undefined;
    const owner = first?.type === 'tool-result' ? callOwner.get(first.toolCallId) : undefined;
    if (owner === undefined || first?.type !== 'tool-result') {
      // Stays where it is; a result arriving after it would be moved before it.
      turn = -1;
      continue;
    }
    if (owner !== turn) return false;
    const call = (messages[owner] as LlmMessage).content.findIndex((part) => part.type === 'tool-call' && part.id === first.toolCallId);
    if (call < lastCall) return false;
    lastCall = call;
  }
  return true;
}

/** Tool messages sorted like the calls of the assistant turn they answer (Gemini pairs by position). */
function inCallOrder(results: LlmToolMessage[], turn: LlmMessage): LlmToolMessage[] {
  const order = new Map<string, number>();
  turn.content.forEach((part, index) => {
    if (part.type === 'tool-call') order.set(part.id, index);
  });
  const position = (message: LlmToolMessage) => {
    const first = message.content.find((part) => part.type === 'tool-result');
    return first && first.type === 'tool-result' ? (order.get(first.toolCallId) ?? Infinity) : Infinity;
  };
  return [...results].sort((a, b) => position(a) - position(b));
}
