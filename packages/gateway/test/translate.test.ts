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
});
