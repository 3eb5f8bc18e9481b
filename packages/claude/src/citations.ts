import type { CodecContext, LlmCitation } from '@llm/core';
import { reportLoss } from '@llm/core';
import type { WireHolder } from '@llm/core/kit';
import { PROTOCOL, ext, read } from './protocol.js';

const KNOWN = new Set(['cited_text', 'document_index', 'document_title', 'url', 'title', 'file_id']);

/** Citation types whose title field is `title` (the rest say `document_title`). */
const TITLED = new Set(['web_search_result_location', 'search_result_location']);

/**
 * A wire citation -> canonical. `type` and the location fields (char / page / block ranges,
 * `encrypted_index`, `source`, ...) stay in the extensions bag.
 */
export function decodeCitation(holder: WireHolder, key: string | number, parent: string): LlmCitation {
  const wire = read.object(holder, key, parent);
  const type = wire.type;
  const titled = typeof type === 'string' && TITLED.has(type);
  const citation: LlmCitation = { kind: type === 'web_search_result_location' ? 'url' : 'document' };
  const rest = ext.rest(wire, KNOWN);
  if (typeof wire.cited_text === 'string') citation.citedText = wire.cited_text;
  else if (wire.cited_text !== undefined && wire.cited_text !== null) moveTo(rest, wire, 'cited_text');
  if (typeof wire.document_index === 'number') citation.documentIndex = wire.document_index;
  else if (wire.document_index != null) moveTo(rest, wire, 'document_index');
  if (typeof wire.url === 'string') citation.url = wire.url;
  else if (wire.url != null) moveTo(rest, wire, 'url');
  if (typeof wire.file_id === 'string') citation.fileId = wire.file_id;
  else if (wire.file_id != null) moveTo(rest, wire, 'file_id');
  const titleKey = titled ? 'title' : 'document_title';
  const otherTitle = titled ? 'document_title' : 'title';
  if (typeof wire[titleKey] === 'string') citation.title = wire[titleKey] as string;
  else if (wire[titleKey] != null) moveTo(rest, wire, titleKey);
  if (wire[otherTitle] != null) moveTo(rest, wire, otherTitle);
  return ext.keep(citation, rest);
}

function moveTo(rest: Record<string, unknown> | undefined, wire: Record<string, unknown>, key: string): void {
  // ext.rest always returns a bag here: `type` is never a known key.
  if (rest) rest[key] = wire[key];
}

/**
 * Canonical citation -> wire. Claude citations decoded by this codec come back as they were;
 * foreign ones become `web_search_result_location` (URL) or `char_location` (document) with the
 * ranges Claude needs but other protocols do not give, reported as a lossy conversion.
 */
export function encodeCitation(citation: LlmCitation, path: string, context: CodecContext | undefined): Record<string, unknown> {
  const bag = ext.bag(citation);
  const out: Record<string, unknown> = {};
  if (bag && typeof bag.type === 'string') {
    const titled = TITLED.has(bag.type);
    out.type = bag.type;
    if (citation.citedText !== undefined) out.cited_text = citation.citedText;
    if (citation.url !== undefined) out.url = citation.url;
    if (citation.title !== undefined) out[titled ? 'title' : 'document_title'] = citation.title;
    if (citation.documentIndex !== undefined) out.document_index = citation.documentIndex;
    if (citation.fileId !== undefined) out.file_id = citation.fileId;
    ext.writeRest(out, citation);
    return out;
  }
  reportLoss(context, {
    code: 'lossy-conversion',
    path,
    message: 'a citation from another protocol was rewritten as a Claude citation with approximate location fields',
    protocol: PROTOCOL,
  });
  if (citation.kind === 'url' || citation.url !== undefined) {
    return {
      type: 'web_search_result_location',
      cited_text: citation.citedText ?? '',
      url: citation.url ?? '',
      title: citation.title ?? null,
      encrypted_index: '',
    };
  }
  return {
    type: 'char_location',
    cited_text: citation.citedText ?? '',
    document_index: citation.documentIndex ?? 0,
    document_title: citation.title ?? null,
    start_char_index: citation.startIndex ?? 0,
    end_char_index: citation.endIndex ?? 0,
  };
}
