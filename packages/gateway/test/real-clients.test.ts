import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.js';
import { createLogger } from '../src/logger.js';
import { startMockUpstream } from '../src/mock/server.js';
import { startGateway } from '../src/server/start.js';
import { cleanEnv, installClient, runClient, scratch, writeCodexConfig, writeGeminiSettings } from './helpers/real-clients.js';
import type { ServedProtocol } from '../src/served-protocols.js';

/**
 * Real agent clients, run offline as ../shared/CLIENTS.md describes, complete a whole agent loop
 * through the gateway against mock upstreams of other protocols: ask, a tool call the client
 * runs (reading README.md), the tool result, a final answer quoting it.
 */
let claudeBin: string;
let geminiBin: string;
let codexBin: string;

beforeAll(async () => {
  [claudeBin, geminiBin, codexBin] = await Promise.all([installClient('claude-code'), installClient('gemini-cli'), installClient('codex')]);
}, 600_000);

/** A gateway in front of one mock upstream, recording the status of every request it answers. */
function gatewayTo(protocol: ServedProtocol, cwd: string) {
  const statuses: number[] = [];
  const state = { url: '', close: async () => {} };
  beforeAll(async () => {
    const mock = await startMockUpstream({ protocol, workdir: cwd });
    const config = parseConfig(
      JSON.stringify({
        upstreams: { up: { protocol, baseUrl: mock.baseUrl, apiKey: 'mock' } },
        routes: [{ match: '*', upstream: 'up', model: `${protocol}-model` }],
        ledger: false,
      }),
    );
    // The gateway's access log: every request the client made, with the status it got.
    const log = {
      write(line: string) {
        const entry = JSON.parse(line) as { msg: string; status?: number };
        if (entry.msg === 'request') statuses.push(entry.status ?? 0);
      },
    };
    const gateway = await startGateway(config, { port: 0, logger: createLogger('info', log) });
    state.url = gateway.url;
    state.close = async () => {
      await gateway.close();
      await mock.close();
    };
  });
  afterAll(async () => state.close());
  return { statuses, state };
}

describe.each(['openai-chat', 'openai-responses', 'gemini'] as const)('Claude Code 2.1.330 through the gateway to a %s upstream', (protocol) => {
  const marker = `blue-falcon-${protocol}`;
  const { cwd, home } = scratch(marker);
  const { statuses, state } = gatewayTo(protocol, cwd);

  it('completes the agent loop: Read tool call, tool result, final answer with the marker', async () => {
    const stdout = await runClient(
      claudeBin,
      ['-p', 'Read README.md and tell me the marker line it contains.', '--output-format', 'json'],
      cwd,
      cleanEnv(home, {
        ANTHROPIC_BASE_URL: state.url,
        ANTHROPIC_API_KEY: 'sk-ant-dummy',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      }),
    );
    const result = JSON.parse(stdout) as { is_error: boolean; num_turns: number; result: string; api_error_status: number | null };
    expect([result.is_error, result.num_turns, result.api_error_status]).toEqual([false, 2, null]);
    expect(result.result).toContain(`MARKER: ${marker}`);
    // Two model calls (the tool call, then the answer), both answered 200; no other traffic.
    expect(statuses).toEqual([200, 200]);
  }, 180_000);
});

describe.each(['claude', 'openai-chat', 'openai-responses'] as const)('Gemini CLI 0.61.0 through the gateway to a %s upstream', (protocol) => {
  const marker = `green-heron-${protocol}`;
  const { cwd, home } = scratch(marker);
  writeGeminiSettings(home);
  const { statuses, state } = gatewayTo(protocol, cwd);

  it('completes the agent loop: routing classifier, read_file call, tool result, final answer with the marker', async () => {
    const stdout = await runClient(
      geminiBin,
      ['-p', 'Read README.md and tell me the marker line it contains.', '--output-format', 'json'],
      cwd,
      cleanEnv(home, { GEMINI_API_KEY: 'dummy-gemini-key', GOOGLE_GEMINI_BASE_URL: state.url, GEMINI_CLI_TRUST_WORKSPACE: 'true' }),
    );
    const result = JSON.parse(stdout) as { response: string; stats: { models: Record<string, { api: { totalErrors: number } }> } };
    expect(result.response).toContain(`MARKER: ${marker}`);
    expect(Object.values(result.stats.models).map((model) => model.api.totalErrors)).toEqual(Object.values(result.stats.models).map(() => 0));
    // The routing classifier (:generateContent, structured output), then two streamed turns.
    expect(statuses).toEqual([200, 200, 200]);
  }, 180_000);
});

/**
 * Codex's three tool layouts (CLIENTS.md): its default model in code mode (no top-level tools: an
 * `additional_tools` input item of namespaces whose freeform `exec` tool runs JavaScript calling
 * nested tools, outputs as arrays of `input_text`), gpt-5.5 (top-level functions and a freeform
 * `apply_patch`), and a model slug Codex does not know (a top-level `namespace` tool too).
 */
const CODEX_MODELS = [
  { label: 'default model, code mode', args: [], tool: 'functions.exec' },
  { label: 'gpt-5.5', args: ['-m', 'gpt-5.5'], tool: 'exec_command' },
  { label: 'unknown model slug', args: ['-m', 'gateway-custom-model'], tool: 'exec_command' },
] as const;

describe.each(['claude', 'gemini', 'openai-chat'] as const)('Codex CLI 0.169.0 through the gateway to a %s upstream', (protocol) => {
  const marker = `red-kite-${protocol}`;
  const { cwd, home } = scratch(marker);
  const { statuses, state } = gatewayTo(protocol, cwd);

  it.each(CODEX_MODELS)(
    '$label completes the agent loop: $tool call, command output, final answer with the marker',
    async ({ args }) => {
      statuses.length = 0;
      const codexHome = writeCodexConfig(home, state.url);
      const stdout = await runClient(
        codexBin,
        ['exec', '--skip-git-repo-check', '--sandbox', 'read-only', '--json', ...args, 'Read README.md and tell me the marker line it contains.'],
        cwd,
        cleanEnv(home, { CODEX_HOME: codexHome, UPSTREAM_KEY: 'sk-dummy' }),
      );
      const events = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; item?: { type: string; command?: string; exit_code?: number; text?: string } });
      // The command ran (directly, or from the code-mode script) and read the file.
      const command = events.find((event) => event.type === 'item.completed' && event.item?.type === 'command_execution');
      expect(command?.item?.command).toContain('cat ');
      expect(command?.item?.exit_code).toBe(0);
      const answer = events.find((event) => event.type === 'item.completed' && event.item?.type === 'agent_message');
      expect(answer?.item?.text).toContain(`MARKER: ${marker}`);
      expect(events.at(-1)?.type).toBe('turn.completed');
      expect(statuses).toEqual([200, 200]);
    },
    180_000,
  );
});
