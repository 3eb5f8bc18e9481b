// @llm/bedrock-converse: the AWS Bedrock Converse / ConverseStream codec.
export { bedrockConverse } from './codec.js';
export { conversePath, http } from './http.js';
export { decodeUsage, encodeUsage } from './usage.js';
export { createDecodeState, decodeEnd, decodeStep } from './stream-decode.js';
export { createEncodeState, encodeEnd, encodeStep } from './stream-encode.js';
export type { ConverseDecodeState } from './stream-decode.js';
export type { ConverseEncodeState } from './stream-encode.js';
export type * from './wire-types.js';
