import { citationSpan, reportLoss, utf16Index, utf8Offset, type CodecContext, type LlmAssistantContent, type LlmCitation } from '@llm/core';
import { PROTOCOL } from './protocol.js';

type Wire = Record<string, unknown>;

/**
 * Google Search grounding <-> canonical citations. A `groundingSupports` entry says which
 * `groundingChunks` (web pages) back a segment of a text part; each (segment, web chunk) pair is
 * one URL citation on that text part, its range converted from UTF-8 bytes (Gemini) to UTF-16
 * indices (canonical). A segment's `text` is the answer's own words, not the source's, so it is
 * not a `citedText` (a source passage, which grounding does not carry). The metadata itself stays
 * whole in the candidate's bag, so Gemini clients get it back exactly.
 * @see https://ai.google.dev/gemini-api/docs/google-search#attributing_sources_with_inline_citations
 */

/** The citations `metadata` gives the text `text` (the part `partIndex` of its candidate). */
export function groundingCitations(metadata: unknown, text: string, partIndex: number | undefined): LlmCitation[] {
  if (typeof metadata !== 'object' || metadata === null) return [];
  const { groundingChunks: chunks, groundingSupports: supports } = metadata as Wire;
  if (!Array.isArray(chunks) || !Array.isArray(supports)) return [];
  const out: LlmCitation[] = [];
  for (const support of supports) {
    if (typeof support !== 'object' || support === null) continue;
    const segment = ((support as Wire).segment ?? {}) as Wire;
    if (partIndex !== undefined && (typeof segment.partIndex === 'number' ? segment.partIndex : 0) !== partIndex) continue;
    const indices = (support as Wire).groundingChunkIndices;
    if (!Array.isArray(indices)) continue;
    for (const at of indices) {
      const web = typeof at === 'number' ? ((chunks[at] as Wire | undefined)?.web as Wire | undefined) : undefined;
      if (typeof web?.uri !== 'string') continue;
      const citation: LlmCitation = { kind: 'url', url: web.uri };
      if (typeof web.title === 'string') citation.title = web.title;
      citation.startIndex = utf16Index(text, typeof segment.startIndex === 'number' ? segment.startIndex : 0);
      citation.endIndex = typeof segment.endIndex === 'number' ? utf16Index(text, segment.endIndex) : text.length;
      out.push(citation);
    }
  }
  return out;
}

/** Puts the citations of a candidate's `groundingMetadata` on its text parts (decoded 1:1 from the wire parts). */
export function citeGrounding(metadata: unknown, content: LlmAssistantContent[]): void {
  for (let at = 0; at < content.length; at++) {
    const part = content[at]!;
    if (part.type !== 'text') continue;
    const citations = groundingCitations(metadata, part.text, at);
    if (citations.length > 0) part.citations = [...(part.citations ?? []), ...citations];
  }
}

/** A text part of an answer with the citations to write, and where it is. */
export interface CitedText {
  text: string;
  citations: readonly LlmCitation[];
  /** Index of the wire part (omitted in streams, where the parts of one text span chunks). */
  partIndex?: number;
  path: string;
}

/**
 * URL citations -> `groundingMetadata` (one chunk per distinct URL, one support per citation).
 * Document and file citations have no grounding form: reported at their path.
 */
export function groundingMetadataOf(cited: readonly CitedText[], context: CodecContext | undefined): Wire | undefined {
  const chunks: Wire[] = [];
  const chunkAt = new Map<string, number>();
  const supports: Wire[] = [];
  for (const { text, citations, partIndex, path } of cited) {
    citations.forEach((citation, index) => {
      if (citation.url === undefined) {
        reportLoss(context, {
          code: 'dropped-field',
          path: `${path}.citations[${index}]`,
          message: 'Gemini grounding cites web pages only',
          protocol: PROTOCOL,
        });
        return;
      }
      let chunk = chunkAt.get(citation.url);
      if (chunk === undefined) {
        chunk = chunks.length;
        chunkAt.set(citation.url, chunk);
        chunks.push({ web: citation.title === undefined ? { uri: citation.url } : { uri: citation.url, title: citation.title } });
      }
      const { start, end } = citationSpan(citation, text);
      const segment: Wire = {};
      if (partIndex !== undefined) segment.partIndex = partIndex;
      segment.startIndex = utf8Offset(text, start);
      segment.endIndex = utf8Offset(text, end);
      segment.text = text.slice(start, end);
      supports.push({ segment, groundingChunkIndices: [chunk] });
    });
  }
  return chunks.length > 0 ? { groundingChunks: chunks, groundingSupports: supports } : undefined;
}
