import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { expect, it } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The one line after `heading` in the printed settings. */
function settingAfter(settings: string, heading: string): string {
  const lines = settings.split('\n');
  const at = lines.indexOf(heading);
  if (at < 0) throw new Error(`no "${heading}" in:\n${settings}`);
  return lines[at + 1]!.trim();
}

it('serve --mock runs the gateway and four mock upstreams until stopped, and its printed settings work as pasted', async () => {
  const child = spawn(
    process.execPath,
    [join(packageDir, 'node_modules/tsx/dist/cli.mjs'), '--conditions=@llm/source', 'src/cli.ts', 'serve', '--mock', '--port', '0'],
    {
      cwd: packageDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const settings = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('GEMINI_API_KEY=mock gemini')) resolve(stderr);
    });
    void exited.then((code) => reject(new Error(`exited (${code}):\n${stdout}${stderr}`)));
  });
  const url = /mock upstreams at (http:\/\/\S+) /.exec(settings)![1]!;

  // curl, as printed (its URL, headers and body).
  const curl = settingAfter(settings, 'curl:');
  const [, curlUrl, body] = /^curl (\S+) -H 'content-type: application\/json' -d '(.*)'$/.exec(curl)!;
  const chat = await fetch(curlUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  expect(((await chat.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('Mock openai-chat says: hi');

  // The SDK lines, as printed.
  expect(settingAfter(settings, 'OpenAI SDK:')).toBe(`new OpenAI({ baseURL: '${url}/v1', apiKey: 'mock' })`);
  const openai = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'mock', maxRetries: 0 });
  const codex = await openai.responses.create({ model: 'gpt-5-codex', input: 'hi' });
  expect(codex.output_text).toBe('Mock openai-responses says: hi');
  expect(settingAfter(settings, 'Anthropic SDK:')).toBe(`new Anthropic({ baseURL: '${url}', apiKey: 'mock' })`);
  const anthropic = new Anthropic({ baseURL: url, apiKey: 'mock', maxRetries: 0 });
  const message = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 32, messages: [{ role: 'user', content: 'hi' }] });
  expect(message.content).toEqual([{ type: 'text', text: 'Mock claude says: hi' }]);
  expect(settingAfter(settings, 'Google GenAI SDK:')).toBe(`new GoogleGenAI({ apiKey: 'mock', httpOptions: { baseUrl: '${url}' } })`);
  const google = new GoogleGenAI({ apiKey: 'mock', httpOptions: { baseUrl: url } });
  expect((await google.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' })).text).toBe('Mock gemini says: hi');

  // The CLI lines name this gateway.
  expect(settingAfter(settings, 'Claude Code:')).toBe(`ANTHROPIC_BASE_URL=${url} ANTHROPIC_API_KEY=mock claude`);
  expect(settingAfter(settings, 'Codex CLI:')).toContain(`base_url="${url}/v1"`);
  expect(settings).toContain(`GOOGLE_GEMINI_BASE_URL=${url} GEMINI_API_KEY=mock gemini`);
  // The model lists show one model per mock.
  const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: { id: string }[] };
  expect(models.data.map((model) => model.id)).toEqual(['claude-sonnet-4-5', 'gemini-2.5-flash', 'gpt-4.1', 'gpt-5-codex']);

  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  // stdout holds only the gateway's JSON log lines.
  expect(
    stdout
      .split('\n')
      .filter(Boolean)
      .every((line) => line.startsWith('{')),
  ).toBe(true);
}, 30_000);
