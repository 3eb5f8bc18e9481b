// The MCP loop's pure pieces: function names, history lowering, approvals.
import type { LlmMessage, LlmToolResultPart } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { answeredApprovals, lowerMcpHistory, needsApproval } from '../src/mcp/mcp-history.js';
import { FunctionNames, MAX_FUNCTION_NAME_LENGTH, baseFunctionName } from '../src/mcp/mcp-names.js';

describe('MCP function names', () => {
  it('keeps only characters every protocol accepts, at most 64 of them', () => {
    expect(baseFunctionName('my docs', 'files/read.v2')).toBe('mcp__my_docs__files_read_v2');
    const long = baseFunctionName('s', 'x'.repeat(100));
    expect(long).toHaveLength(MAX_FUNCTION_NAME_LENGTH);
    expect(long.startsWith('mcp__s__xxx')).toBe(true);
  });

  it('adds a suffix against taken names and each other, within the length limit', () => {
    const names = new FunctionNames(['mcp__a__b']);
    expect(names.claim('a', 'b')).toBe('mcp__a__b_2');
    expect(names.claim('a', 'b')).toBe('mcp__a__b_3');
    expect(names.claim('a.', 'b')).toBe('mcp__a___b');
    const long = new FunctionNames([]);
    const first = long.claim('s', 'y'.repeat(80));
    const second = long.claim('s', 'y'.repeat(90));
    expect(second).toBe(`${first.slice(0, 62)}_2`);
    expect(second).toHaveLength(64);
  });

  it('names a tool a server lists many times in linear time (a hostile listing cannot stall the gateway)', () => {
    const names = new FunctionNames(['mcp__s__x_3']);
    const started = performance.now();
    const claimed = Array.from({ length: 20_000 }, () => names.claim('s', 'x'));
    // Linear: some ms; a rescan from _2 on every claim (2e8 lookups) takes seconds.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(claimed.slice(0, 3)).toEqual(['mcp__s__x', 'mcp__s__x_2', 'mcp__s__x_4']);
    expect(claimed.at(-1)).toBe('mcp__s__x_20001');
    expect(new Set(claimed).size).toBe(20_000);
  });
});

describe('MCP history for an upstream without MCP', () => {
  const context = (approvalResults = new Map<string, LlmToolResultPart>(), runs = (_server: string) => true) => ({
    functionNameOf: (server: string, tool: string) => `mcp__${server}__${tool}`,
    approvalResults,
    runs,
  });

  it('turns calls and results into function calls and results, one pair per step of the model', () => {
    const messages: LlmMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'mcp-list-tools', id: 'mcpl_1', server: 'docs', tools: [] },
          { type: 'text', text: 'Looking.' },
          { type: 'mcp-call', id: 'c1', server: 'docs', name: 'search', arguments: '{}' },
          { type: 'mcp-result', callId: 'c1', content: 'r1' },
          { type: 'mcp-call', id: 'c2', server: 'docs', name: 'fetch', arguments: { url: 'u' } },
          { type: 'mcp-result', callId: 'c2', content: [{ type: 'text', text: 'r2' }], isError: true },
          { type: 'text', text: 'Then.' },
          { type: 'mcp-call', id: 'c3', server: 'docs', name: 'search', arguments: '{"q":1}' },
          { type: 'mcp-result', callId: 'c3', content: 'r3' },
          { type: 'text', text: 'Done.' },
        ],
      },
    ];
    expect(lowerMcpHistory(messages, context())).toEqual([
      messages[0],
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool-call', id: 'c1', name: 'mcp__docs__search', arguments: '{}' },
          { type: 'tool-call', id: 'c2', name: 'mcp__docs__fetch', arguments: { url: 'u' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'mcp__docs__search', content: 'r1' },
          { type: 'tool-result', toolCallId: 'c2', toolName: 'mcp__docs__fetch', content: [{ type: 'text', text: 'r2' }], isError: true },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Then.' },
          { type: 'tool-call', id: 'c3', name: 'mcp__docs__search', arguments: '{"q":1}' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c3', toolName: 'mcp__docs__search', content: 'r3' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ]);
  });

  it('keeps the parts of servers the upstream runs itself, and drops approval responses and unanswered requests', () => {
    const hosted: LlmMessage = {
      role: 'assistant',
      content: [
        { type: 'mcp-call', id: 'h1', server: 'hosted', name: 'x', arguments: '{}' },
        { type: 'mcp-result', callId: 'h1', content: 'kept' },
        { type: 'mcp-approval-request', id: 'mcpr_1', server: 'docs', name: 'search', arguments: '{}' },
      ],
    };
    const answer: LlmMessage = {
      role: 'user',
      content: [
        { type: 'mcp-approval-response', approvalRequestId: 'mcpr_other', approve: true },
        { type: 'text', text: 'and?' },
      ],
    };
    expect(
      lowerMcpHistory(
        [hosted, answer],
        context(undefined, (server) => server !== 'hosted'),
      ),
    ).toEqual([
      { role: 'assistant', content: [hosted.content[0], hosted.content[1]] },
      { role: 'user', content: [{ type: 'text', text: 'and?' }] },
    ]);
  });

  it('finds the approval requests answered and not yet run', () => {
    const request = { type: 'mcp-approval-request' as const, id: 'mcpr_1', server: 'docs', name: 'search', arguments: '{}' };
    const ran = { type: 'mcp-approval-request' as const, id: 'mcpr_2', server: 'docs', name: 'fetch', arguments: '{}' };
    const messages: LlmMessage[] = [
      { role: 'assistant', content: [ran, request] },
      {
        role: 'user',
        content: [
          { type: 'mcp-approval-response', approvalRequestId: 'mcpr_2', approve: true },
          { type: 'mcp-approval-response', approvalRequestId: 'mcpr_1', approve: false, reason: 'no' },
          { type: 'mcp-approval-response', approvalRequestId: 'mcpr_unknown', approve: true },
        ],
      },
      { role: 'assistant', content: [{ type: 'mcp-call', id: 'c', server: 'docs', name: 'fetch', arguments: '{}', approvalRequestId: 'mcpr_2' }] },
    ];
    expect(answeredApprovals(messages)).toEqual([{ request, approve: false, reason: 'no' }]);
  });

  it('asks for approval as the server says (unset: never; a tool neither list names: ask)', () => {
    const server = { type: 'mcp' as const, name: 's' };
    expect(needsApproval(server, 't')).toBe(false);
    expect(needsApproval({ ...server, requireApproval: 'always' }, 't')).toBe(true);
    expect(needsApproval({ ...server, requireApproval: 'never' }, 't')).toBe(false);
    const lists = { ...server, requireApproval: { always: ['a'], never: ['n'] } };
    expect([needsApproval(lists, 'a'), needsApproval(lists, 'n'), needsApproval(lists, 'other')]).toEqual([true, false, true]);
  });
});
