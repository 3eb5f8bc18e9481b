import { describe, expect, it } from 'vitest';
import { accumulateEvents } from './accumulator.js';
import {
  CodeExecutionPairs,
  codeExecutionOutput,
  codeExecutionText,
  isCodeExecutionPart,
  codeExecutionAsText,
  reportCodeExecutionDropped,
  reportCodeResultFields,
  type LlmCodeExecutionPart,
  type LlmCodeExecutionResultPart,
} from './code-execution.js';
import type { LlmResponse } from './response.js';
import { responseToEvents } from './response-events.js';
import type { LlmWarning } from './warnings.js';

const code: LlmCodeExecutionPart = { type: 'code-execution', language: 'python', code: 'print(1)' };
const failed: LlmCodeExecutionResultPart = { type: 'code-execution-result', outcome: 'failed', output: 'partial\n', stderr: 'Traceback', returnCode: 1 };

describe('code-execution parts', () => {
  it('tells the code and its result from other parts', () => {
    expect(isCodeExecutionPart(code)).toBe(true);
    expect(isCodeExecutionPart(failed)).toBe(true);
    expect(isCodeExecutionPart({ type: 'provider' })).toBe(false);
  });

  it('joins output, standard error and the sandbox error for single-stream targets', () => {
    expect(codeExecutionOutput(failed)).toBe('partial\n\nTraceback');
    expect(codeExecutionOutput({ type: 'code-execution-result', outcome: 'failed', output: '', error: 'unavailable' })).toBe('unavailable');
    expect(codeExecutionOutput({ type: 'code-execution-result', outcome: 'ok', output: '1\n', stderr: '' })).toBe('1\n');
  });

  it('renders either part as fenced text, without a blank line after a last line', () => {
    expect(codeExecutionText(code)).toBe('```python\nprint(1)\n```');
    expect(codeExecutionText({ type: 'code-execution-result', outcome: 'ok', output: '1\n' })).toBe('Output:\n```\n1\n```');
    expect(codeExecutionText({ type: 'code-execution-result', outcome: 'timeout', output: '' })).toBe('Timed out:\n```\n```');
    expect(codeExecutionText(failed)).toBe('Failed:\n```\npartial\n\nTraceback\n```');
  });

  it('reports a run carried as text or dropped, and the fields a target loses', () => {
    const warnings: LlmWarning[] = [];
    const context = { warn: (warning: LlmWarning) => warnings.push(warning) };
    expect(codeExecutionAsText(code, 'messages[1].content[0]', 'claude', context, 'not its sandbox')).toBe('```python\nprint(1)\n```');
    expect(reportCodeExecutionDropped(failed, 'choices[0].content[1]', 'openai-chat', context, 'no code execution')).toBeUndefined();
    const withFiles: LlmCodeExecutionResultPart = {
      ...failed,
      files: [
        { kind: 'url', url: 'https://example.com/plot.png' },
        { kind: 'file', fileId: 'file_1', provider: 'claude' },
      ],
    };
    expect(reportCodeResultFields(withFiles, 'p', 'openai-responses', context, { returnCode: false, takesFile: (file) => file.kind === 'url' })).toEqual([
      { kind: 'url', url: 'https://example.com/plot.png' },
    ]);
    // A 0 of a successful run says nothing the outcome does not.
    reportCodeResultFields({ type: 'code-execution-result', outcome: 'ok', output: '', returnCode: 0 }, 'q', 'gemini', context, { returnCode: false });
    expect(warnings).toEqual([
      { code: 'lossy-conversion', path: 'messages[1].content[0]', message: 'a code execution was carried as text (not its sandbox)', protocol: 'claude' },
      {
        code: 'dropped-part',
        path: 'choices[0].content[1]',
        message: 'a code execution result has no openai-chat form (no code execution)',
        protocol: 'openai-chat',
      },
      { code: 'dropped-field', path: 'p.returnCode', message: 'openai-responses code execution results carry no exit status', protocol: 'openai-responses' },
      {
        code: 'dropped-field',
        path: 'p.files[1]',
        message: 'a file written by code execution has no openai-responses form here',
        protocol: 'openai-responses',
      },
    ]);
  });

  it('pairs results without ids with the code before them, and gives code without one a stable id', () => {
    const pairs = new CodeExecutionPairs('srv_');
    expect(pairs.resultId(failed)).toBe('srv_0');
    expect(pairs.callId({ ...code, language: 'bash' })).toBe('srv_1');
    expect(pairs.resultId(failed)).toBe('srv_1');
    expect(pairs.resultLanguage(failed)).toBe('bash');
    expect(pairs.callId({ ...code, id: 'own' })).toBe('own');
    expect(pairs.resultLanguage({ ...failed, callId: 'other' })).toBeUndefined();
    expect(pairs.resultId({ ...failed, callId: 'other' })).toBe('other');
  });

  it('stream as complete parts and accumulate back to the same answer', () => {
    const response: LlmResponse = {
      id: 'r',
      model: 'm',
      choices: [
        {
          index: 0,
          content: [
            { ...code, origin: { protocol: 'gemini' } },
            { ...failed, extensions: { claude: { $bash: true } } },
          ],
          finishReason: 'stop',
        },
      ],
    };
    const events = responseToEvents(response);
    expect(events[1]).toEqual({ type: 'block-start', index: 0, block: { kind: 'part', part: { ...code, origin: { protocol: 'gemini' } } } });
    expect(accumulateEvents(events)).toEqual(response);
  });
});
