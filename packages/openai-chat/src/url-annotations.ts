import type { CodecContext, LlmCitation } from '@llm/core';
import { citationSpan, reportLoss } from '@llm/core';
import { PROTOCOL } from './protocol.js';

type Wire = Record<string, unknown>;

/**
 * A text's citations -> `url_citation` annotations (a message's `annotations`, a stream chunk's
 * `delta.annotations`), their ranges over the whole message content, where the text starts at
 * `offset`. A citation without a URL has no Chat form: reported at `pathOf(its index)`.
 */
export function urlAnnotations(
  citations: readonly LlmCitation[],
  text: { readonly length: number },
  offset: number,
  pathOf: (at: number) => string,
  context: CodecContext | undefined,
): Wire[] {
  const annotations: Wire[] = [];
  citations.forEach((citation, at) => {
    if (citation.kind !== 'url' || citation.url === undefined) {
      reportLoss(context, { code: 'dropped-field', path: pathOf(at), message: 'openai-chat annotations cite URLs only', protocol: PROTOCOL });
      return;
    }
    const { start, end } = citationSpan(citation, text);
    annotations.push({
      type: 'url_citation',
      url_citation: { end_index: offset + end, start_index: offset + start, title: citation.title ?? '', url: citation.url },
    });
  });
  return annotations;
}
