// Synthetic workloads shaped like what coding agents send: a long system prompt, ~20 tools with
// JSON Schemas, and a growing tool loop. Shared by the per-codec suites.

/** A tool definition as JSON Schema (name, description, parameters). */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** ~20 tools like a coding agent's: file, shell, search, web. */
export function agentTools(count = 20): ToolSpec[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `tool_${index}_${['read_file', 'edit_file', 'bash', 'grep', 'glob', 'web_fetch'][index % 6]}`,
    description: `${`Tool ${index}. `.repeat(12)}Use it when the task needs it; prefer small, precise calls and explain the result.`,
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Absolute path of the file to work on.' },
        pattern: { type: 'string', description: 'A regular expression.' },
        limit: { type: 'integer', minimum: 1, maximum: 2000 },
        options: { type: 'object', properties: { recursive: { type: 'boolean' }, context: { type: 'integer' } }, required: ['recursive'] },
        files: { type: 'array', items: { type: 'string' } },
      },
      required: ['path'],
    },
  }));
}

/** A system prompt of about `bytes` bytes. */
export function systemPrompt(bytes: number): string {
  const line = 'You are an expert software engineer. Follow the repository conventions, run the tests, and explain every change briefly.\n';
  return line.repeat(Math.max(1, Math.ceil(bytes / line.length)));
}

/** One turn of a tool loop: the call's arguments and its result text. */
export interface LoopTurn {
  id: string;
  name: string;
  args: Record<string, unknown>;
  result: string;
}

/** Tool-loop turns until their text reaches about `bytes` bytes. */
export function loopTurns(bytes: number): LoopTurn[] {
  const turns: LoopTurn[] = [];
  let size = 0;
  for (let index = 0; size < bytes; index++) {
    const result = `line ${index}: const value = compute(${index}); // ok\n`.repeat(8);
    turns.push({ id: `call_${index.toString(36)}`, name: 'tool_0_read_file', args: { path: `/repo/src/file-${index}.ts`, limit: 200 }, result });
    size += result.length + 80;
  }
  return turns;
}

/** Sizes the request suites measure. */
export const REQUEST_SIZES: ReadonlyArray<[label: string, bytes: number]> = [
  ['2 KB', 2_000],
  ['50 KB', 50_000],
  ['500 KB', 500_000],
];

/** One SSE event as a codec's decoder receives it. */
export interface ArrivedEvent {
  event: string | undefined;
  data: string;
  id: undefined;
}

/**
 * A stream case: `arrived` events fed one by one through `pipeline()` (a fresh decoder ->
 * encoder), against the floor of a proxy that parses and re-serialises each event.
 */
export function streamCase(
  name: string,
  arrived: ArrivedEvent[],
  pipeline: () => (event: ArrivedEvent) => void,
): { name: string; wire: string; baseline: () => unknown; run: () => unknown } {
  return {
    name,
    wire: `[${arrived.map((event) => event.data).join(',')}]`,
    baseline: () => {
      let bytes = 0;
      for (const event of arrived) bytes += JSON.stringify(JSON.parse(event.data)).length;
      return bytes;
    },
    run: () => {
      const feed = pipeline();
      for (const event of arrived) feed(event);
    },
  };
}
