import type { ServedProtocol } from '../served-protocols.js';
import { modelFamilyPreset } from '@llm/router';
import { parseConfig } from '../config/load.js';
import { type MockUpstream, startMockUpstream } from '../mock/server.js';
import { type Gateway, startGateway } from '../server/start.js';

/** The upstream name of each protocol's mock, as routes and the model lists name it. */
const MOCKS: Record<ServedProtocol, string> = { 'openai-chat': 'chat', 'openai-responses': 'responses', claude: 'claude', gemini: 'gemini' };

/** Model names the playground lists, one per family, so model pickers show each mock. */
const LISTED_MODELS = ['claude-sonnet-4-5', 'gemini-2.5-flash', 'gpt-4.1', 'gpt-5-codex'];

/** The gateway in front of the four mock upstreams (`llm-gateway serve --mock`). */
export interface Playground {
  gateway: Gateway;
  /** Ready-to-paste client settings for this gateway. */
  settings: string;
  close(): Promise<void>;
}

/**
 * Starts one mock upstream per protocol on free loopback ports and the gateway in front of them,
 * routing by model family (`claude*` to the Claude mock, `gemini*` to Gemini, `gpt*` to Chat,
 * o-series and codex to Responses, anything else to Claude), with no keys and no ledger: a
 * playground to point real clients at without an API key.
 */
export async function startPlayground(options: { port?: number; host?: string }): Promise<Playground> {
  const protocols = Object.keys(MOCKS) as ServedProtocol[];
  const mocks: MockUpstream[] = await Promise.all(protocols.map((protocol) => startMockUpstream({ protocol, port: 0 })));
  const upstreams = Object.fromEntries(mocks.map((mock) => [MOCKS[mock.protocol], { protocol: mock.protocol, baseUrl: mock.baseUrl, apiKey: 'mock' }]));
  const routes = [
    ...modelFamilyPreset({ openaiResponses: 'responses', openaiChat: 'chat', claude: 'claude', gemini: 'gemini' }),
    { match: '*', upstream: 'claude' },
  ];
  const closeMocks = () => Promise.all(mocks.map((mock) => mock.close())).then(() => undefined);
  let gateway: Gateway;
  try {
    const config = parseConfig(JSON.stringify({ upstreams, routes, models: LISTED_MODELS, ledger: false }), {});
    gateway = await startGateway(config, { port: options.port ?? 8787, host: options.host ?? '127.0.0.1' });
  } catch (error) {
    await closeMocks();
    throw error;
  }
  return {
    gateway,
    settings: playgroundSettings(gateway.url),
    async close() {
      await gateway.close();
      await closeMocks();
    },
  };
}

/** What to paste into each client to reach the gateway at `url` (any key works: it has none). */
export function playgroundSettings(url: string): string {
  return `llm-gateway with mock upstreams at ${url} (no keys: any key works; Ctrl-C stops)
Models: claude* -> Claude mock, gemini* -> Gemini mock, gpt* -> OpenAI Chat mock, o1/o3/o4 and *codex* -> OpenAI Responses mock, anything else -> Claude mock.

curl:
  curl ${url}/v1/chat/completions -H 'content-type: application/json' -d '{"model":"gpt-4.1","messages":[{"role":"user","content":"hi"}]}'
OpenAI SDK:
  new OpenAI({ baseURL: '${url}/v1', apiKey: 'mock' })
Anthropic SDK:
  new Anthropic({ baseURL: '${url}', apiKey: 'mock' })
Google GenAI SDK:
  new GoogleGenAI({ apiKey: 'mock', httpOptions: { baseUrl: '${url}' } })
Claude Code:
  ANTHROPIC_BASE_URL=${url} ANTHROPIC_API_KEY=mock claude
Codex CLI:
  OPENAI_API_KEY=mock codex -c model_provider=gateway -c 'model_providers.gateway={name="Gateway",base_url="${url}/v1",env_key="OPENAI_API_KEY",wire_api="responses"}'
Gemini CLI (with security.auth.selectedType "gemini-api-key" in ~/.gemini/settings.json):
  GOOGLE_GEMINI_BASE_URL=${url} GEMINI_API_KEY=mock gemini`;
}
