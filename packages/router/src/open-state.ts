import {
  extractOpaqueState,
  isJsonObject,
  opaqueStateWarning,
  reportLoss,
  unpackOpaqueState,
  type CodecContext,
  type LlmAssistantContent,
  type LlmOrigin,
  type LlmReasoningPart,
  type LlmRequest,
} from '@llm/core';

/** Gemini's documented placeholder for a function call without a real thought signature. */
const SKIP_SIGNATURE = 'skip_thought_signature_validator';

/**
 * Opens the carriers {@link sealContent} wrote, after the client codec decoded a request: native
 * signature fields holding a carrier get the original signature and origin back, tool-call ids
 * lose their carrier (and give back the call's signature and the reasoning that preceded it),
 * and tool results' `toolCallId` are stripped the same way so they match the upstream's ids.
 * Corrupt carriers are cut off and reported (`invalid-state`).
 */
export function openRequestState(request: LlmRequest, context?: CodecContext): LlmRequest {
  request.messages.forEach((message, messageIndex) => {
    if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type === 'tool-result') part.toolCallId = extractOpaqueState(part.toolCallId).host;
      }
      return;
    }
    if (message.role !== 'assistant') return;
    const out: LlmAssistantContent[] = [];
    message.content.forEach((part, partIndex) => {
      const path = `messages[${messageIndex}].content[${partIndex}]`;
      // An empty signature proves nothing (Claude clients echo unsigned thinking with `signature: ""`),
      // nor does Gemini's documented skip sentinel: the Gemini encoder adds it again where needed.
      if (
        (part.type === 'reasoning' && part.signature === '') ||
        ((part.type === 'tool-call' || part.type === 'text' || part.type === 'reasoning') && part.signature === SKIP_SIGNATURE)
      ) {
        delete part.signature;
        delete part.origin;
      }
      if ((part.type === 'reasoning' || part.type === 'text' || part.type === 'tool-call') && part.signature) {
        const unpacked = unpackOpaqueState(part.signature);
        const data = unpacked.state?.data;
        if (unpacked.state && typeof data === 'string') {
          part.signature = data;
          part.origin = unpacked.state.origin;
          if (part.type === 'reasoning') rejoinStreamedReasoning(out, part);
        } else if (unpacked.state && part.type === 'reasoning' && isJsonObject(data) && typeof data.signature === 'string') {
          Object.assign(part, reasoningPart({ ...data, text: part.text, redacted: part.redacted }, unpacked.state.origin));
          rejoinStreamedReasoning(out, part);
        } else if (!unpacked.state && unpacked.problem !== 'not-a-carrier') {
          reportLoss(context, opaqueStateWarning(path, { problem: unpacked.problem }));
          delete part.signature;
          if (part.type === 'reasoning' && part.text === '') return;
        }
      }
      if (part.type === 'tool-call') {
        const extracted = extractOpaqueState(part.id);
        if (extracted.problem) reportLoss(context, opaqueStateWarning(path, { problem: extracted.problem }));
        part.id = extracted.host;
        const data = extracted.state?.data;
        if (extracted.state && isJsonObject(data)) {
          const origin = extracted.state.origin;
          if (typeof data.signature === 'string') {
            part.signature = data.signature;
            part.origin = origin;
          }
          if (Array.isArray(data.reasoning)) {
            // The client's echo of that reasoning (unsigned text) is replaced by the carried parts.
            while (out.length > 0 && isUnsignedReasoning(out[out.length - 1])) out.pop();
            for (const item of data.reasoning) if (isJsonObject(item)) out.push(reasoningPart(item, origin));
          }
        }
      }
      out.push(part);
    });
    message.content = out;
  });
  return request;
}

/**
 * A streamed reasoning block reaches a Gemini client as several thought parts, its carrier on the
 * last one (often empty): clients replay those parts one by one. The issuer signed the block's
 * whole text, so the unsigned fragments echoed just before the carrier are joined back into it.
 */
function rejoinStreamedReasoning(out: LlmAssistantContent[], part: LlmReasoningPart): void {
  if (part.redacted) return;
  let text = part.text;
  while (out.length > 0 && isUnsignedReasoning(out[out.length - 1])) text = (out.pop() as LlmReasoningPart).text + text;
  part.text = text;
}

function isUnsignedReasoning(part: LlmAssistantContent | undefined): boolean {
  return part?.type === 'reasoning' && part.signature === undefined;
}

function reasoningPart(item: Record<string, unknown>, origin: LlmOrigin): LlmReasoningPart {
  const part: LlmReasoningPart = { type: 'reasoning', text: typeof item.text === 'string' ? item.text : '', origin };
  if (typeof item.signature === 'string') part.signature = item.signature;
  if (item.redacted === true) part.redacted = true;
  if (item.format === 'full' || item.format === 'summary') part.format = item.format;
  if (typeof item.id === 'string') part.id = item.id;
  return part;
}
