import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * Most bytes of one HTTP answer of a client-supplied MCP server (a tool list, a call's result, an
 * event stream) the host reads: the SDK reads an answer whole before anything is cut, and a hostile
 * server could otherwise send without end.
 */
export const MAX_CLIENT_MCP_ANSWER_BYTES = 8 * 1024 * 1024;

/** `fetch` whose successful answers' bodies fail once they pass `maxBytes`, telling `onOverflow` too. */
export function sizeLimitedFetch(fetch: FetchLike, maxBytes: number, onOverflow: (error: Error) => void): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (!response.body || response.status < 200 || response.status > 299) return response;
    let seen = 0;
    const counted = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen <= maxBytes) return controller.enqueue(chunk);
        const error = new Error(`the MCP server's answer passed ${maxBytes} bytes`);
        controller.error(error);
        onOverflow(error);
      },
    });
    return new Response(response.body.pipeThrough(counted), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
