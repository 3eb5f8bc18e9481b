import {
  collectUnknown,
  joinPath,
  type LlmAudioPart,
  type LlmCitation,
  type LlmFilePart,
  type LlmImagePart,
  type LlmRefusalPart,
  type LlmTextPart,
} from '@llm/core';
import { parseDataUrl, type WireHolder } from '@llm/core/kit';
import { PROTOCOL, ext, invalidAt, read } from './protocol.js';

/** A canonical part a message content part becomes. */
export type DecodedContentPart = LlmTextPart | LlmImagePart | LlmFilePart | LlmAudioPart | LlmRefusalPart;

const TEXT_KNOWN = new Set(['type', 'text']);
const OUTPUT_TEXT_KNOWN = new Set(['type', 'text']);
const IMAGE_KNOWN = new Set(['type', 'image_url', 'file_id', 'detail']);
const FILE_KNOWN = new Set(['type', 'file_id', 'file_data', 'file_url', 'filename']);
const AUDIO_KNOWN = new Set(['type', 'input_audio']);
const REFUSAL_KNOWN = new Set(['type', 'refusal']);

/**
 * Decodes one message content part (`input_text`, `output_text`, `input_image`, `input_file`,
 * `input_audio`, `refusal`). `output_text.annotations` become citations and are also kept whole
 * so that same-protocol encodes are exact.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
 */
export function decodeContentPart(holder: WireHolder, key: number, parent: string): DecodedContentPart {
  const part = read.object(holder, key, parent);
  const type = part.type;
  switch (type) {
    case 'input_text': {
      const out: LlmTextPart = { type: 'text', text: read.string(part, 'text', joinPath(parent, key)) };
      ext.keep(out, collectUnknown(part, TEXT_KNOWN));
      return out;
    }
    case 'output_text': {
      const path = joinPath(parent, key);
      const out: LlmTextPart = { type: 'text', text: read.string(part, 'text', path) };
      const unknown = collectUnknown(part, OUTPUT_TEXT_KNOWN);
      if (Array.isArray(part.annotations) && part.annotations.length > 0) {
        out.citations = part.annotations.map(citationOf);
      }
      // `collectUnknown` made `unknown` for this part alone: extended in place, not copied.
      const bag: Record<string, unknown> = unknown ?? {};
      bag.$type = 'output_text';
      ext.keep(out, bag);
      return out;
    }
    case 'refusal': {
      const out: LlmRefusalPart = {
        type: 'refusal',
        text: read.string(part, 'refusal', joinPath(parent, key)),
      };
      ext.keep(out, collectUnknown(part, REFUSAL_KNOWN));
      return out;
    }
    case 'input_image': {
      const path = joinPath(parent, key);
      const url = read.optionalString(part, 'image_url', path);
      const fileId = read.optionalString(part, 'file_id', path);
      const out: LlmImagePart = {
        type: 'image',
        source: url !== undefined ? { kind: 'url', url } : { kind: 'file', fileId: fileId ?? '', provider: PROTOCOL },
      };
      const detail = read.optionalString(part, 'detail', path);
      if (detail !== undefined) out.detail = detail as NonNullable<LlmImagePart['detail']>;
      const unknown = collectUnknown(part, IMAGE_KNOWN);
      ext.keep(out, url === undefined && fileId === undefined ? { ...unknown, $noSource: true } : unknown);
      return out;
    }
    case 'input_file': {
      const path = joinPath(parent, key);
      const fileId = read.optionalString(part, 'file_id', path);
      const data = read.optionalString(part, 'file_data', path);
      const fileUrl = read.optionalString(part, 'file_url', path);
      const unknown: Record<string, unknown> = { ...collectUnknown(part, FILE_KNOWN) };
      let source: LlmFilePart['source'];
      if (data !== undefined) {
        // Only a data URL with a media type and no parameters is said as one again on encode.
        const url = parseDataUrl(data);
        if (url?.mediaType && !url.parameters) source = { kind: 'base64', mediaType: url.mediaType, data: url.data };
        else {
          source = { kind: 'base64', mediaType: 'application/octet-stream', data };
          unknown.$rawData = true;
        }
        if (fileId !== undefined) unknown.file_id = fileId;
        if (fileUrl !== undefined) unknown.file_url = fileUrl;
      } else if (fileId !== undefined) {
        source = { kind: 'file', fileId, provider: PROTOCOL };
        if (fileUrl !== undefined) unknown.file_url = fileUrl;
      } else if (fileUrl !== undefined) source = { kind: 'url', url: fileUrl };
      else return invalidAt(path, 'file_id, file_data or file_url', part);
      const out: LlmFilePart = { type: 'file', source };
      const filename = read.optionalString(part, 'filename', path);
      if (filename !== undefined) out.filename = filename;
      ext.keep(out, unknown);
      return out;
    }
    case 'input_audio': {
      const path = joinPath(parent, key);
      const audio = read.object(part, 'input_audio', path);
      const inner = joinPath(path, 'input_audio');
      const format = read.string(audio, 'format', inner);
      const out: LlmAudioPart = {
        type: 'audio',
        source: { kind: 'base64', mediaType: `audio/${format}`, data: read.string(audio, 'data', inner) },
        format,
      };
      ext.keep(out, collectUnknown(part, AUDIO_KNOWN));
      return out;
    }
    default:
      return invalidAt(joinPath(parent, key), '"input_text", "output_text", "refusal", "input_image", "input_file" or "input_audio" as type', type);
  }
}

function citationOf(annotation: unknown): LlmCitation {
  const value = (typeof annotation === 'object' && annotation !== null ? annotation : {}) as Record<string, unknown>;
  const citation: LlmCitation = { kind: value.type === 'url_citation' ? 'url' : 'file' };
  if (typeof value.url === 'string') citation.url = value.url;
  if (typeof value.title === 'string') citation.title = value.title;
  if (typeof value.file_id === 'string') citation.fileId = value.file_id;
  if (typeof value.start_index === 'number') citation.startIndex = value.start_index;
  if (typeof value.end_index === 'number') citation.endIndex = value.end_index;
  return citation;
}
