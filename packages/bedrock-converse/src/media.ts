/**
 * Converse names media by short format words (`png`, `pdf`, `docx`); the canonical model by media
 * types. Both tables are closed: Converse takes only these formats.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ImageBlock.html
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentBlock.html
 */

const IMAGE_TYPES: Readonly<Record<string, string>> = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

const DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  html: 'text/html',
  txt: 'text/plain',
  md: 'text/markdown',
};

function invert(table: Readonly<Record<string, string>>): ReadonlyMap<string, string> {
  return new Map(Object.entries(table).map(([format, mediaType]) => [mediaType, format]));
}

const IMAGE_FORMATS = invert(IMAGE_TYPES);
const DOCUMENT_FORMATS = invert(DOCUMENT_TYPES);

/** `png` -> `image/png`; `undefined` for a word Converse does not use. */
export function imageMediaType(format: unknown): string | undefined {
  return typeof format === 'string' && Object.hasOwn(IMAGE_TYPES, format) ? IMAGE_TYPES[format] : undefined;
}

/** `image/png` -> `png` (`image/jpg` too reads as `jpeg`); `undefined` when Converse takes no such image. */
export function imageFormat(mediaType: string | undefined): string | undefined {
  if (mediaType === 'image/jpg') return 'jpeg';
  return mediaType === undefined ? undefined : IMAGE_FORMATS.get(mediaType.toLowerCase());
}

/** `pdf` -> `application/pdf`; `undefined` for a word Converse does not use. */
export function documentMediaType(format: unknown): string | undefined {
  return typeof format === 'string' && Object.hasOwn(DOCUMENT_TYPES, format) ? DOCUMENT_TYPES[format] : undefined;
}

/** `application/pdf` -> `pdf`; `undefined` when Converse takes no such document. */
export function documentFormat(mediaType: string | undefined): string | undefined {
  return mediaType === undefined ? undefined : DOCUMENT_FORMATS.get(mediaType.toLowerCase());
}

/**
 * A document `name` Converse accepts: letters, digits, single spaces, hyphens, parentheses and
 * square brackets (`report.pdf` is refused). Other characters become `-`; a valid name is kept.
 */
export function documentName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9\s\-()[\]]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned === '' ? 'document' : cleaned;
}
