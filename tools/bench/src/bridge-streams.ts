// CPU per translated 50-delta stream through a bridge (`answers.streamChunks`: upstream SSE bytes
// -> client SSE text), the mock upstream's exact frames, no HTTP: the per-stream translation cost
// the load run's stream column holds. With `--base=DIR` (a source tree of another commit, e.g. a
// `git archive` with its node_modules), each round runs this tree and that one in turn, each in
// its own process, so a loaded machine moves both alike; CPU time (not wall time) is measured.
//
//   node scripts/pnpm.mjs --filter @llm/bench run bridge-streams -- --peers-scripts=../shared/peers [--base=DIR] [--rounds=3]
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const arg = (name: string, fallback: string): string => {
  const found = process.argv.find((item) => item.startsWith(`--${name}=`));
  return found ? found.slice(name.length + 3) : fallback;
};
const ROOT = resolve(arg('root', resolve(HERE, '../../..')));
const PEERS_SCRIPTS = resolve(arg('peers-scripts', resolve(ROOT, '../shared/peers')));
/** client-upstream pairs, as in the load run's target names. */
const PAIRS = arg('pairs', 'chat-responses,responses-chat,chat-claude,claude-chat,chat-gemini,chat-chat').split(',');

type Codec = unknown;
interface StreamBridge {
  streamChunks(body: AsyncIterable<Uint8Array>, options?: { includeUsage?: boolean }): AsyncIterable<string | Uint8Array>;
}

/** Microseconds of process CPU per stream for each pair, in the tree at `root`. */
async function measureTree(root: string): Promise<Record<string, number>> {
  const load = (path: string) => import(pathToFileURL(join(root, path)).href);
  const { bridge } = (await load('packages/router/src/index.ts')) as { bridge(options: { client: Codec; upstream: Codec }): StreamBridge };
  const codecs: Record<string, Codec> = {
    chat: (await load('packages/openai-chat/src/index.ts')).openaiChat,
    responses: (await load('packages/openai-responses/src/index.ts')).openaiResponses,
    claude: (await load('packages/claude/src/index.ts')).claude,
    gemini: (await load('packages/gemini/src/index.ts')).gemini,
  };
  const peer = await import(pathToFileURL(join(PEERS_SCRIPTS, 'payloads.mjs')).href);
  const frames: Record<string, string[]> = {
    chat: peer.openaiChatStream('mock-model', true),
    responses: peer.responsesStream('mock-model'),
    claude: peer.anthropicStream('mock-model'),
    gemini: peer.geminiStream('mock-model'),
  };
  const cpu = (): number => {
    const usage = process.cpuUsage();
    return usage.user + usage.system;
  };
  const result: Record<string, number> = {};
  for (const pair of PAIRS) {
    const [client, upstream] = pair.split('-') as [string, string];
    const via = bridge({ client: codecs[client], upstream: codecs[upstream] });
    const bytes = (frames[upstream] ?? []).map((frame) => new TextEncoder().encode(frame));
    async function* body(): AsyncIterable<Uint8Array> {
      yield* bytes;
    }
    const stream = async (): Promise<void> => {
      for await (const _ of via.streamChunks(body(), { includeUsage: true }));
    };
    for (let index = 0; index < 300; index++) await stream();
    let best = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 4; round++) {
      let count = 0;
      const start = cpu();
      while (cpu() - start < 250_000) {
        await stream();
        count++;
      }
      best = Math.min(best, (cpu() - start) / count);
    }
    result[pair] = best;
  }
  return result;
}

if (process.argv.includes('--child')) {
  console.log(JSON.stringify(await measureTree(ROOT)));
} else {
  const base = arg('base', '');
  const rounds = Number(arg('rounds', base ? '3' : '1'));
  const trees: Array<[string, string]> = base
    ? [
        ['base', resolve(base)],
        ['this tree', ROOT],
      ]
    : [['this tree', ROOT]];
  const runs = new Map<string, Array<Record<string, number>>>(trees.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, root] of trees) {
      const args = [
        '--import',
        'tsx',
        '--conditions=@llm/source',
        fileURLToPath(import.meta.url),
        '--child',
        `--root=${root}`,
        `--peers-scripts=${PEERS_SCRIPTS}`,
        `--pairs=${PAIRS.join(',')}`,
      ];
      runs.get(name)?.push(JSON.parse(execFileSync(process.execPath, args, { cwd: HERE, encoding: 'utf8' })) as Record<string, number>);
    }
  }
  const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  console.log(`| pair | ${trees.map(([name]) => `${name} µs/stream`).join(' | ')} |`);
  console.log(`|---|${trees.map(() => '---:').join('|')}|`);
  for (const pair of PAIRS) {
    const cells = trees.map(([name]) => {
      const values = (runs.get(name) ?? []).map((run) => run[pair] ?? Number.NaN);
      return `${median(values).toFixed(0)} (${values.map((value) => value.toFixed(0)).join(' / ')})`;
    });
    console.log(`| ${pair} | ${cells.join(' | ')} |`);
  }
}
