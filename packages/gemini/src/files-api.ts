/** Files API URIs need the caller's key: they are file ids, not URLs another provider can fetch. */
const FILES_API = /^https:\/\/generativelanguage\.googleapis\.com\/[^/]+\/files\//;

/** Whether `uri` names a file uploaded through Gemini's Files API. */
export function isFilesApiUri(uri: string): boolean {
  return FILES_API.test(uri);
}
