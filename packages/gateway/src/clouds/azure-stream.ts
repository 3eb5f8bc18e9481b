/**
 * Azure OpenAI opens a Chat stream with an announcement of its prompt filter: a chunk with no
 * choices, an empty `id` and `model` and `created: 0` (`{"choices":[],"created":0,"id":"",
 * "model":"","object":"","prompt_filter_results":[...]}`). A decoder that takes the first
 * chunk's id and model would hand clients an empty model; this drops such chunks from the start
 * of the stream, then passes the rest through untouched (only the head is ever parsed). The
 * returned iterator's `return()` cancels the source at once, even while a read waits.
 */

/** Longest stream head searched for announcements; past it everything passes as it is. */
const MAX_HEAD_BYTES = 64 * 1024;
const EVENT_END = /\r?\n\r?\n/;

function isAnnouncement(event: string): boolean {
  if (!event.includes('"prompt_filter_results"')) return false;
  const data = event
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
  try {
    const chunk = JSON.parse(data) as { choices?: unknown; id?: unknown };
    return Array.isArray(chunk.choices) && chunk.choices.length === 0 && !chunk.id;
  } catch {
    return false;
  }
}

export function withoutPromptFilterAnnouncements(source: AsyncIterable<Uint8Array>): AsyncIterableIterator<Uint8Array> {
  const reads = source[Symbol.asyncIterator]();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let head: string | undefined = '';
  const iterator: AsyncIterableIterator<Uint8Array> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      for (;;) {
        const read = await reads.next();
        if (head === undefined) return read;
        if (read.done) {
          const rest = head + decoder.decode();
          head = undefined;
          return rest === '' ? read : { done: false, value: encoder.encode(rest) };
        }
        head += decoder.decode(read.value, { stream: true });
        let match = EVENT_END.exec(head);
        while (match && isAnnouncement(head.slice(0, match.index))) {
          head = head.slice(match.index + match[0].length);
          match = EVENT_END.exec(head);
        }
        // A first event that is not an announcement (or a head too long to be one) ends the search.
        if (match || head.length > MAX_HEAD_BYTES) {
          const rest = head + decoder.decode();
          head = undefined;
          if (rest !== '') return { done: false, value: encoder.encode(rest) };
        }
      }
    },
    async return() {
      head = undefined;
      await reads.return?.();
      return { done: true, value: undefined };
    },
  };
  return iterator;
}
