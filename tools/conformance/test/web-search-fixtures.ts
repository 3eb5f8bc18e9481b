/** Upstream answers of a web search with citations, as each provider sends them. */

export const CITED_URL = 'https://blog.rust-lang.org/2027/edition';
export const CITED_TITLE = 'Rust 2027 edition';

/** A Claude answer: the search call and its results (server blocks), then cited text. */
export const claudeSearchAnswer = {
  id: 'msg_search',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content: [
    { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'rust 2027 edition' } },
    {
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_1',
      content: [{ type: 'web_search_result', url: CITED_URL, title: CITED_TITLE, encrypted_content: 'ENC', page_age: null }],
    },
    {
      type: 'text',
      text: 'The edition ships in 2027.',
      citations: [{ type: 'web_search_result_location', url: CITED_URL, title: CITED_TITLE, encrypted_index: 'IDX', cited_text: 'Rust 2027 ships this year' }],
    },
    { type: 'text', text: ' More soon.' },
  ],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 5, server_tool_use: { web_search_requests: 1 } },
};

/** A Gemini answer grounded by Google Search: one text part, a support for its first sentence (bytes, "é" is two). */
export const geminiSearchAnswer = {
  candidates: [
    {
      content: { role: 'model', parts: [{ text: 'L’édition sort en 2027. More soon.' }] },
      finishReason: 'STOP',
      index: 0,
      groundingMetadata: {
        webSearchQueries: ['rust 2027 edition'],
        searchEntryPoint: { renderedContent: '<div></div>' },
        groundingChunks: [{ web: { uri: CITED_URL, title: CITED_TITLE } }, { web: { uri: 'https://example.test/news', title: 'News' } }],
        groundingSupports: [{ segment: { startIndex: 0, endIndex: 26, text: 'L’édition sort en 2027.' }, groundingChunkIndices: [0, 1] }],
      },
    },
  ],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'resp_search',
};
