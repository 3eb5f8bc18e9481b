import type { CodecContext, LlmCitation } from '@llm/core';
import { isJsonObject, reportLoss } from '@llm/core';
import { PROTOCOL } from './protocol.js';

/**
 * `delta.annotations` of a stream chunk -> citations of the choice's text. Search models send their
 * `url_citation` annotations on the wire this way (usually on a chunk of their own after the
 * text), though the SDK's chunk type lists no such field. Ranges are over the message content,
 * which is the one text block. An annotation of another type, or without a URL, has no canonical
 * form in a stream: reported.
 */
export function decodeDeltaAnnotations(items: readonly unknown[], path: string, context: CodecContext | undefined): LlmCitation[] {
  const citations: LlmCitation[] = [];
  for (let i = 0; i < items.length; i++) {
    const annotation = items[i];
    const cite = isJsonObject(annotation) && annotation.type === 'url_citation' ? annotation.url_citation : undefined;
    if (!isJsonObject(cite) || typeof cite.url !== 'string') {
      reportLoss(context, {
        code: 'dropped-field',
        path: `${path}[${i}]`,
        message: 'only url_citation annotations have a canonical form in a stream',
        protocol: PROTOCOL,
      });
      continue;
    }
    const citation: LlmCitation = { kind: 'url', url: cite.url };
    if (typeof cite.title === 'string') citation.title = cite.title;
    if (Number.isInteger(cite.start_index)) citation.startIndex = cite.start_index as number;
    if (Number.isInteger(cite.end_index)) citation.endIndex = cite.end_index as number;
    citations.push(citation);
  }
  return citations;
}
