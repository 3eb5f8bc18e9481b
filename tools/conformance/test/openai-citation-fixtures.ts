/** Upstream answers of OpenAI web searches with url_citation annotations, as each API sends them. */
import { CITED_TITLE, CITED_URL } from './web-search-fixtures.js';

// "L’édition sort en 2027." is 23 UTF-16 units (OpenAI's indexes) and 26 UTF-8 bytes (Gemini's).
export const CITED_SENTENCE = 'L’édition sort en 2027.';
export const CITED_ANSWER = `${CITED_SENTENCE} More soon.`;
export const NEWS_URL = 'https://example.test/news';

/** A Responses answer: the web_search_call item, then the message whose text cites two pages. */
export const responsesSearchAnswer = {
  id: 'resp_search',
  object: 'response',
  created_at: 1_800_000_000,
  status: 'completed',
  model: 'gpt-4.1',
  output: [
    { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'rust 2027 edition' } },
    {
      type: 'message',
      id: 'msg_1',
      status: 'completed',
      role: 'assistant',
      content: [
        {
          type: 'output_text',
          text: CITED_ANSWER,
          annotations: [
            { type: 'url_citation', start_index: 0, end_index: 23, url: CITED_URL, title: CITED_TITLE },
            { type: 'url_citation', start_index: 24, end_index: 34, url: NEWS_URL, title: 'News' },
          ],
        },
      ],
    },
  ],
  usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
};

/** A Chat answer of a search model: message.annotations over the content. */
export const chatSearchAnswer = {
  id: 'chatcmpl_search',
  object: 'chat.completion',
  created: 1_800_000_000,
  model: 'gpt-4o-search-preview',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: CITED_ANSWER,
        refusal: null,
        annotations: [
          { type: 'url_citation', url_citation: { start_index: 0, end_index: 23, url: CITED_URL, title: CITED_TITLE } },
          { type: 'url_citation', url_citation: { start_index: 24, end_index: 34, url: NEWS_URL, title: 'News' } },
        ],
      },
      finish_reason: 'stop',
      logprobs: null,
    },
  ],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
};

/**
 * The same Chat answer streamed, as search models send it: the text, then the annotations on a
 * chunk of their own, then the finish.
 */
export const chatSearchStream = [
  { choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
  { choices: [{ index: 0, delta: { content: CITED_SENTENCE }, finish_reason: null }] },
  { choices: [{ index: 0, delta: { content: ' More soon.' }, finish_reason: null }] },
  { choices: [{ index: 0, delta: { annotations: chatSearchAnswer.choices[0]!.message.annotations }, finish_reason: null }] },
  { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
]
  .map(
    (chunk) =>
      `data: ${JSON.stringify({ id: 'chatcmpl_search', object: 'chat.completion.chunk', created: 1_800_000_000, model: 'gpt-4o-search-preview', ...chunk })}\n\n`,
  )
  .join('')
  .concat('data: [DONE]\n\n');
