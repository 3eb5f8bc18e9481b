import type { LlmTextPart } from '@llm/core';

/** One content block of an MCP tool result (the MCP spec's `ContentBlock`), as far as it is read here. */
export interface McpContentBlock {
  type: string;
  text?: string;
  mimeType?: string;
  data?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

/** An MCP `CallToolResult`, as far as it is read here. */
export interface McpCallResult {
  content?: McpContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** Size of base64 data in bytes. */
function base64Bytes(data: string | undefined): number {
  if (!data) return 0;
  return Math.floor((data.replace(/=+$/, '').length * 3) / 4);
}

/**
 * One block as text: text as is, an embedded text resource with its URI; images, audio and binary
 * resources cannot reach a model through a tool result on every upstream, so they are described
 * (type, size) and their data dropped.
 */
function blockText(block: McpContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text ?? '';
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType ?? 'of unknown type'}, ${base64Bytes(block.data)} bytes, dropped by the gateway]`;
    case 'resource_link':
      return `[resource link ${block.uri ?? ''}${block.name ? ` (${block.name})` : ''}]`;
    case 'resource': {
      const resource = block.resource ?? {};
      if (resource.text !== undefined) return `[resource ${resource.uri ?? ''}]\n${resource.text}`;
      return `[resource ${resource.uri ?? ''} ${resource.mimeType ?? 'of unknown type'}, ${base64Bytes(resource.blob)} bytes, dropped by the gateway]`;
    }
    default:
      return `[${block.type} content, dropped by the gateway]`;
  }
}

const encoder = new TextEncoder();

/** `text` cut to at most `maxBytes` of UTF-8 on a character boundary (only that much is encoded), and its byte count. */
function cutUtf8(text: string, maxBytes: number): { text: string; bytes: number } {
  const { read, written } = encoder.encodeInto(text, new Uint8Array(maxBytes));
  return { text: read === text.length ? text : text.slice(0, read), bytes: written };
}

/**
 * A tool result as text parts, one per content block (structured content as JSON when there are
 * no blocks), at most `maxBytes` of UTF-8 in all: the parts past the limit are cut, and a last
 * part says by how much, so the model knows it saw part of the result.
 */
export function resultTextParts(result: McpCallResult, maxBytes: number): LlmTextPart[] {
  const blocks = result.content ?? [];
  const texts = blocks.length > 0 ? blocks.map(blockText) : result.structuredContent !== undefined ? [JSON.stringify(result.structuredContent)] : [''];
  const total = texts.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0);
  if (total <= maxBytes) return texts.map((text) => ({ type: 'text', text }));
  const parts: LlmTextPart[] = [];
  let left = maxBytes;
  for (const text of texts) {
    if (left <= 0) break;
    const kept = cutUtf8(text, left);
    parts.push({ type: 'text', text: kept.text });
    left -= kept.bytes;
    if (kept.text.length < text.length) break;
  }
  parts.push({ type: 'text', text: `[result cut by the gateway: ${maxBytes} of ${total} bytes shown]` });
  return parts;
}
