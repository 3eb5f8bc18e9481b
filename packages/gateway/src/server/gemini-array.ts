/**
 * Gemini's `:streamGenerateContent` without `alt=sse` answers one JSON array written
 * incrementally (`[{...}\n,\r\n{...}]`, content-type application/json). The router speaks SSE
 * only, so the gateway asks it for SSE and rewrites the events' data into the array form.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */

/** True when a Gemini stream request did not ask for SSE. */
export function wantsGeminiArray(url: URL): boolean {
  return url.pathname.endsWith(':streamGenerateContent') && url.searchParams.get('alt') !== 'sse';
}

/** The same request asking for `alt=sse`. */
export function withAltSse(request: Request, url: URL): Request {
  const sseUrl = new URL(url);
  sseUrl.searchParams.set('alt', 'sse');
  const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers: request.headers, signal: request.signal };
  if (request.body) {
    init.body = request.body;
    init.duplex = 'half';
  }
  return new Request(sseUrl, init);
}

/** An SSE answer rewritten as a JSON array stream; other answers (errors) are returned as they are. */
export function sseToGeminiArray(response: Response): Response {
  if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) return response;
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = '';
  let count = 0;
  const emit = (controller: TransformStreamDefaultController<Uint8Array>, block: string) => {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
      .join('\n');
    if (!data) return;
    controller.enqueue(encoder.encode(`${count === 0 ? '[' : '\n,\r\n'}${data}`));
    count += 1;
  };
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = /\r?\n\r?\n/.exec(buffer);
        while (end) {
          emit(controller, buffer.slice(0, end.index));
          buffer = buffer.slice(end.index + end[0].length);
          end = /\r?\n\r?\n/.exec(buffer);
        }
      },
      flush(controller) {
        emit(controller, buffer + decoder.decode());
        controller.enqueue(encoder.encode(count === 0 ? '[]' : ']'));
      },
    }),
  );
  const headers = new Headers(response.headers);
  headers.set('content-type', 'application/json; charset=UTF-8');
  headers.delete('content-length');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
