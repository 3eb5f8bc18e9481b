import { describe, expect, it } from 'vitest';
import { logDiagnostics } from '../src/diagnostics-log.js';
import { createLogger } from '../src/logger.js';
import type { RequestRecord } from '../src/router-contract.js';

const record: RequestRecord = {
  requestId: 'req-1',
  clientProtocol: 'claude',
  clientModel: 'claude-sonnet-4-5',
  upstream: 'openai',
  upstreamProtocol: 'openai-chat',
  upstreamModel: 'gpt-4.1',
  status: 200,
  stream: true,
  totalMs: 12,
  warnings: [],
  diagnostics: {
    rule: 'claude-*',
    attempts: 2,
    upstreamStatus: 200,
    toolCalls: 1,
    toolCallPreviews: ['Read({"file_path":"README.md"})'],
    toolResultPreviews: ['# Demo'],
  },
};

function lines(level: string, logged: RequestRecord): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  logDiagnostics(createLogger(level, { write: (line: string) => out.push(JSON.parse(line) as Record<string, unknown>) }), logged);
  return out;
}

describe('diagnostics log line', () => {
  it('at debug: one line with the route decision, upstream status and calls, tool calls and previews', () => {
    const [line, ...rest] = lines('debug', record);
    expect(rest).toEqual([]);
    const { time: _time, ...fields } = line as Record<string, unknown>;
    expect(fields).toEqual({
      level: 20,
      name: 'llm-gateway',
      requestId: 'req-1',
      clientModel: 'claude-sonnet-4-5',
      rule: 'claude-*',
      upstream: 'openai',
      upstreamModel: 'gpt-4.1',
      upstreamStatus: 200,
      attempts: 2,
      status: 200,
      toolCalls: 1,
      toolCallPreviews: ['Read({"file_path":"README.md"})'],
      toolResultPreviews: ['# Demo'],
      msg: 'diagnostics',
    });
  });

  it('at info, or without diagnostics on the record: nothing', () => {
    expect(lines('info', record)).toEqual([]);
    const { diagnostics: _diagnostics, ...plain } = record;
    expect(lines('debug', plain)).toEqual([]);
  });
});
