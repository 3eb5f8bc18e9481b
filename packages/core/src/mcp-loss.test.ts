import { describe, expect, it } from 'vitest';
import { accumulateEvents } from './accumulator.js';
import type { LlmMcpAssistantPart } from './mcp.js';
import { isMcpPart, reportMcpPartDropped, reportMcpToolDropped } from './mcp-loss.js';
import type { LlmResponse } from './response.js';
import { responseToEvents } from './response-events.js';
import type { LlmWarning } from './warnings.js';

const call: LlmMcpAssistantPart = { type: 'mcp-call', id: 'mcp_1', server: 'deepwiki', name: 'ask', arguments: '{"q":"x"}' };
const result: LlmMcpAssistantPart = { type: 'mcp-result', callId: 'mcp_1', content: 'answer', isError: false };

describe('MCP parts and tools for targets without hosted MCP', () => {
  it('tells MCP parts from the others', () => {
    expect(isMcpPart(call)).toBe(true);
    expect(isMcpPart({ type: 'mcp-approval-response' })).toBe(true);
    expect(isMcpPart({ type: 'tool-call' })).toBe(false);
    expect(isMcpPart({ type: 'toString' })).toBe(false);
  });

  it('reports a dropped server and a dropped part, or throws in strict mode', () => {
    const warnings: LlmWarning[] = [];
    const context = { warn: (warning: LlmWarning) => warnings.push(warning) };
    reportMcpToolDropped({ type: 'mcp', name: 'deepwiki', url: 'https://mcp.deepwiki.com/mcp' }, 'tools[2]', 'gemini', context);
    expect(reportMcpPartDropped(result, 'messages[1].content[0]', 'gemini', context)).toBeUndefined();
    expect(warnings).toEqual([
      { code: 'dropped-tool', path: 'tools[2]', message: 'MCP server deepwiki has no gemini form (gemini hosts no MCP)', protocol: 'gemini' },
      { code: 'dropped-part', path: 'messages[1].content[0]', message: 'an MCP result has no gemini form (gemini hosts no MCP)', protocol: 'gemini' },
    ]);
    expect(() => reportMcpPartDropped(call, 'm', 'openai-chat', { strict: true })).toThrow('m: an MCP call has no openai-chat form (openai-chat hosts no MCP)');
  });

  it('streams MCP parts as part blocks complete at start, and accumulates them back', () => {
    const response: LlmResponse = { id: 'r', model: 'm', choices: [{ index: 0, content: [call, result], finishReason: 'stop' }] };
    const events = responseToEvents(response);
    expect(events).toEqual([
      { type: 'start', id: 'r', model: 'm' },
      { type: 'block-start', index: 0, block: { kind: 'part', part: call } },
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'part', part: result } },
      { type: 'block-end', index: 1 },
      { type: 'finish', reason: 'stop' },
    ]);
    expect(accumulateEvents(events)).toEqual(response);
  });
});
