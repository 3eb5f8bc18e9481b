/**
 * `@llm/core/kit`: the helpers every codec is written with, one of each: wire readers bound to
 * the codec's protocol, the extension bag of unmodelled fields, the SSE JSON preamble of stream
 * decoders and `data:` URLs. Codec authors import it; applications need only `@llm/core`.
 */
export { wireReader, type WireHolder, type WireReader } from './wire-reader.js';
export { extensionKit, type ExtensionKit } from './extension-kit.js';
export { readSseJson, SseJsonReader, type SseJson } from './sse-json.js';
export { isJsonText } from './json-text.js';
export { jsonString } from './json-string.js';
export { dataUrl, parseDataUrl, type DataUrl } from './data-url.js';
export { readMcpToolList } from './mcp-tool-list.js';
export { PartPath, partPathAt, type PathLike } from './part-path.js';
export { ChildPath } from './child-path.js';
export { HeldCallArguments } from './held-call-arguments.js';
