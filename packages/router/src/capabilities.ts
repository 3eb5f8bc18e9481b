import { LlmError, type LlmRequest } from '@llm/core';
import type { UpstreamCapabilities } from './config.js';

/**
 * Checks a canonical request against an upstream's declared capabilities and throws an
 * `unsupported` error naming what is missing, before anything is sent. Streaming is not checked
 * here: the handler serves a streaming client from a non-streaming upstream instead.
 */
export function checkCapabilities(request: LlmRequest, capabilities: Partial<UpstreamCapabilities> | undefined, upstream: string): void {
  if (!capabilities) return;
  const fail = (what: string, path: string): never => {
    throw new LlmError({ kind: 'unsupported', message: `upstream ${upstream} does not support ${what}`, path });
  };
  if (capabilities.tools === false && request.tools && request.tools.length > 0) fail('tools', 'tools');
  if (capabilities.reasoning === false && request.reasoning) fail('reasoning', 'reasoning');
  if (capabilities.images === false || capabilities.citations === false) {
    request.messages.forEach((message, messageIndex) => {
      message.content.forEach((part, partIndex) => {
        const path = `messages[${messageIndex}].content[${partIndex}]`;
        const hasImage =
          part.type === 'image' || (part.type === 'tool-result' && Array.isArray(part.content) && part.content.some((item) => item.type === 'image'));
        if (hasImage && capabilities.images === false) fail('images', path);
        // A document the model is asked to cite (Claude `citations.enabled`).
        if (part.type === 'file' && part.citations === true && capabilities.citations === false) fail('citations', path);
      });
    });
  }
}
