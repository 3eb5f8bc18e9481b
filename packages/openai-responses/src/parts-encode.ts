import { bytesToBase64, citationSpan, reportLoss, type CodecContext, type LlmCitation, type LlmPart } from '@llm/core';
import { dataUrl } from '@llm/core/kit';
import { PROTOCOL, ext } from './protocol.js';

/** A canonical citation -> an `output_text` annotation; one without a range covers the whole `text`. */
export function annotationOf(citation: LlmCitation, text: string): Record<string, unknown> {
  if (citation.kind === 'url') {
    const { start, end } = citationSpan(citation, text);
    return {
      type: 'url_citation',
      start_index: start,
      end_index: end,
      title: citation.title ?? '',
      url: citation.url ?? '',
    };
  }
  return { type: 'file_citation', file_id: citation.fileId ?? '', filename: citation.title ?? '', index: citation.startIndex ?? 0 };
}

/**
 * Encodes a canonical part as a message content part. `output` selects `output_text` (assistant
 * replay) over `input_text`. Parts a message cannot hold return `undefined` after a warning.
 */
export function encodeContentPart(part: LlmPart, output: boolean, path: string, context: CodecContext | undefined): Record<string, unknown> | undefined {
  const bag = ext.bag(part);
  switch (part.type) {
    case 'text': {
      const wireType = output || bag?.$type === 'output_text' ? 'output_text' : 'input_text';
      const out: Record<string, unknown> = { type: wireType, text: part.text };
      if (wireType === 'output_text' && bag?.annotations === undefined) {
        out.annotations = part.citations ? part.citations.map((citation) => annotationOf(citation, part.text)) : [];
      }
      ext.writeRest(out, part);
      return out;
    }
    case 'refusal': {
      const out: Record<string, unknown> = { type: 'refusal', refusal: part.text };
      ext.writeRest(out, part);
      return out;
    }
    case 'image': {
      const out: Record<string, unknown> = { type: 'input_image' };
      const source = part.source;
      if (!bag?.$noSource) {
        if (source.kind === 'url') out.image_url = source.url;
        else if (source.kind === 'base64') out.image_url = dataUrl(source.mediaType, source.data);
        else if (source.kind === 'file') out.file_id = source.fileId;
        else {
          reportLoss(context, { code: 'dropped-part', path, message: 'a text image source has no Responses form', protocol: PROTOCOL });
          return undefined;
        }
      }
      if (part.detail !== undefined) out.detail = part.detail;
      else if (bag === undefined) out.detail = 'auto';
      ext.writeRest(out, part);
      return out;
    }
    case 'file': {
      const out: Record<string, unknown> = { type: 'input_file' };
      const source = part.source;
      if (source.kind === 'base64') out.file_data = bag?.$rawData ? source.data : dataUrl(source.mediaType, source.data);
      else if (source.kind === 'file') out.file_id = source.fileId;
      else if (source.kind === 'url') out.file_url = source.url;
      else out.file_data = dataUrl('text/plain', bytesToBase64(new TextEncoder().encode(source.text)));
      if (part.filename !== undefined) out.filename = part.filename;
      ext.writeRest(out, part);
      return out;
    }
    case 'audio': {
      if (part.source.kind !== 'base64') {
        reportLoss(context, { code: 'dropped-part', path, message: 'Responses audio input must be inline base64', protocol: PROTOCOL });
        return undefined;
      }
      const format = part.format ?? part.source.mediaType.replace(/^audio\//, '');
      const out: Record<string, unknown> = { type: 'input_audio', input_audio: { data: part.source.data, format } };
      ext.writeRest(out, part);
      return out;
    }
    default:
      reportLoss(context, { code: 'dropped-part', path, message: `a ${part.type} part cannot be message content`, protocol: PROTOCOL });
      return undefined;
  }
}
