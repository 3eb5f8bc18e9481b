export {
  fixturesDir,
  fixturesRoot,
  listFixtures,
  readCassette,
  readChunkPayloads,
  readFixtureBytes,
  readFixtureJson,
  readFixtureText,
  repoRoot,
} from './fixtures.js';
export type { CassetteInteraction } from './fixtures.js';
export { byteAtATime, collect, runTransform, splitAt, splitOffsets, streamOf, thrown, utf8 } from './streams.js';
export { readmeExamples, runExample } from './readme.js';
export { errorsAsJson, typedSseEvent } from './stream-outcomes.js';
export { NOT_JSON_TEXTS, decodeFailure, notJsonTextError, type DecodeFailure } from './json-text-errors.js';
export { TOOL_RESULTS_WITH_LOSSES } from './tool-result-requests.js';
export { encodeWithLosses, type LossAt } from './encode-losses.js';
export { encodeBothWays, warningKinds, type BothEncodings, type BothWaysCodec, type WarningLike } from './encode-both-ways.js';
