// The tools of the test MCP server (test/helpers/mcp-server.ts), registered with the official
// SDK's McpServer, for every transport the tests use.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** What `fail` answers with `mode: "result"`. */
export const FAIL_TEXT = 'the tool failed on purpose';
/** The message `fail` throws with `mode: "throw"`. */
export const THROW_TEXT = 'thrown inside the tool';

/** A call of a tool of the test server, as it ran. */
export interface TestToolCall {
  tool: string;
  args: Record<string, unknown>;
}

/**
 * A server with the tools `add`, `slow`, `fail`, `secret_op`, `big` and `pid`; `onCall` hears
 * the calls of `add` and `secret_op` (for tests counting what a provider really ran).
 */
export function testMcpServer(onCall?: (call: TestToolCall) => void): McpServer {
  const server = new McpServer({ name: 'gateway-test-mcp', version: '1.0.0' });
  server.registerTool('add', { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => {
    onCall?.({ tool: 'add', args: { a, b } });
    return { content: [{ type: 'text', text: String(a + b) }] };
  });
  server.registerTool('slow', { description: 'Answers after `ms` milliseconds.', inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      const stop = () => {
        clearTimeout(timer);
        resolve();
      };
      extra.signal.addEventListener('abort', stop, { once: true });
    });
    return { content: [{ type: 'text', text: `waited ${ms} ms` }] };
  });
  server.registerTool(
    'fail',
    { description: 'Fails: with an error result, or by throwing.', inputSchema: { mode: z.enum(['result', 'throw']) } },
    async ({ mode }) => {
      if (mode === 'throw') throw new Error(THROW_TEXT);
      return { isError: true, content: [{ type: 'text', text: FAIL_TEXT }] };
    },
  );
  server.registerTool(
    'secret_op',
    { description: 'A sensitive operation: clients should approve each call.', inputSchema: { target: z.string() } },
    async ({ target }) => {
      onCall?.({ tool: 'secret_op', args: { target } });
      return { content: [{ type: 'text', text: `secret operation done on ${target}` }] };
    },
  );
  server.registerTool('big', { description: 'Answers `bytes` letters x.', inputSchema: { bytes: z.number() } }, async ({ bytes }) => ({
    content: [{ type: 'text', text: 'x'.repeat(bytes) }],
  }));
  server.registerTool('pid', { description: "The server process's id." }, async () => ({ content: [{ type: 'text', text: String(process.pid) }] }));
  return server;
}
