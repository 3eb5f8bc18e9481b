import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run.js';

function io(stdin: string) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t: string) => stdout.push(t), err: (t: string) => stderr.push(t), readStdin: async () => stdin, env: {} };
}

const CLAUDE_REQUEST = JSON.stringify({ model: 'claude-opus-5-5', max_tokens: 64, system: 'be brief', messages: [{ role: 'user', content: 'hi' }] });

describe('translate', () => {
  it('translates a Claude request into an OpenAI Chat request from stdin', async () => {
    const run = io(CLAUDE_REQUEST);
    expect(await runCli(['translate', '--from', 'claude', '--to', 'openai-chat', '--model', 'gpt-4.1'], run)).toBe(0);
    const body = JSON.parse(run.stdout.join('\n')) as { model: string; messages: { role: string; content: unknown }[] };
    expect(body.model).toBe('gpt-4.1');
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('translates a Claude request into a Bedrock Converse request (the model goes in the URL, not the body)', async () => {
    const run = io(CLAUDE_REQUEST);
    expect(await runCli(['translate', '--from', 'claude', '--to', 'bedrock-converse', '--model', 'anthropic.claude-sonnet-4-5'], run)).toBe(0);
    expect(JSON.parse(run.stdout.join('\n'))).toEqual({
      system: [{ text: 'be brief' }],
      messages: [{ role: 'user', content: [{ text: 'hi' }] }],
      inferenceConfig: { maxTokens: 64 },
    });
  });

  it('applies the fixes the gateway applies: consecutive user turns merged for Claude, a 70-character tool name shortened, with warnings on stderr', async () => {
    const longName = `lookup_${'x'.repeat(63)}`;
    const chat = {
      model: 'gpt-4.1',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ],
      tools: [{ type: 'function', function: { name: longName, parameters: { type: 'object' } } }],
    };
    const run = io(JSON.stringify(chat));
    expect(await runCli(['translate', '--from', 'openai-chat', '--to', 'claude'], run)).toBe(0);
    const body = JSON.parse(run.stdout.join('\n')) as { messages: { role: string; content: { text: string }[] }[]; tools: { name: string }[] };
    expect(body.messages.map((m) => [m.role, m.content.map((c) => c.text)])).toEqual([['user', ['a', 'b']]]);
    expect(body.tools[0]?.name).toHaveLength(64);
    expect(run.stderr.map((line) => (JSON.parse(line) as { warning: { code: string; path: string } }).warning).map((w) => `${w.code}@${w.path}`)).toEqual([
      // The router renames the tool first; the Claude codec then defaults max_tokens (its one owner).
      'lossy-conversion@tools[0].name',
      'defaulted@max_tokens',
    ]);
  });

  it('translates an upstream answer (a file) and an SSE capture into the client protocol', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'translate-'));
    const answer = join(dir, 'answer.json');
    writeFileSync(
      answer,
      JSON.stringify({
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-x',
        content: [{ type: 'text', text: 'Hello' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 3, output_tokens: 1 },
      }),
    );
    const json = io('');
    expect(await runCli(['translate', '--from', 'claude', '--to', 'openai-chat', '--kind', 'response', answer], json)).toBe(0);
    const completion = JSON.parse(json.stdout.join('\n')) as {
      choices: { message: { content: string }; finish_reason: string }[];
      usage: { prompt_tokens: number };
    };
    expect(completion.choices[0]).toMatchObject({ message: { content: 'Hello' }, finish_reason: 'stop' });
    expect(completion.usage.prompt_tokens).toBe(3);

    const capture = [
      [
        'message_start',
        {
          type: 'message_start',
          message: {
            id: 'msg_2',
            type: 'message',
            role: 'assistant',
            model: 'claude-x',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 3, output_tokens: 0 },
          },
        },
      ],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'lo' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }],
      ['message_stop', { type: 'message_stop' }],
    ]
      .map(([event, data]) => `event: ${event as string}\ndata: ${JSON.stringify(data)}\n\n`)
      .join('');
    const stream = io(capture);
    expect(await runCli(['translate', '--from', 'claude', '--to', 'openai-chat', '--kind', 'stream'], stream)).toBe(0);
    const datas = stream.stdout
      .join('')
      .split('\n\n')
      .map((frame) => frame.trim())
      .filter(Boolean)
      .map((frame) => frame.replace(/^data: /, ''));
    expect(datas.at(-1)).toBe('[DONE]');
    const chunks = datas.slice(0, -1).map((data) => JSON.parse(data) as { choices: { delta: { content?: string }; finish_reason: string | null }[] });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Hello');
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason).filter(Boolean)).toEqual(['stop']);
  });
});
