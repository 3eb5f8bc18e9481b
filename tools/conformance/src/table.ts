import type { ProtocolId } from '@llm/core';
import { EXPECTED_LOSSES, describeLoss } from './losses.js';
import type { CellResult } from './run.js';
import { scenarios } from './scenarios.js';

const SHORT: Record<ProtocolId, string> = { 'openai-chat': 'C', 'openai-responses': 'R', claude: 'A', gemini: 'G', 'bedrock-converse': 'B' };
const MARK: Record<CellResult['status'], string> = { pass: 'ok', loss: 'loss', fail: 'FAIL', 'n/a': '-' };

/**
 * The matrix as a Markdown table: one row per scenario, one column per client->upstream pair,
 * each cell `json/stream`, then the expected losses with their reasons.
 */
export function renderTable(results: readonly CellResult[]): string {
  const pairs = [...new Set(results.map((cell) => `${cell.client}>${cell.upstream}`))];
  const label = (pair: string) =>
    pair
      .split('>')
      .map((id) => SHORT[id as ProtocolId])
      .join('→');
  const cell = (scenario: string, pair: string) =>
    (['json', 'stream'] as const)
      .map((mode) => results.find((result) => result.scenario === scenario && `${result.client}>${result.upstream}` === pair && result.mode === mode))
      .map((result) => (result ? MARK[result.status] : '?'))
      .join('/');
  const lines = [
    `| scenario | ${pairs.map(label).join(' | ')} |`,
    `|---|${pairs.map(() => '---').join('|')}|`,
    ...scenarios.map((scenario) => `| ${scenario.title} | ${pairs.map((pair) => cell(scenario.id, pair)).join(' | ')} |`),
  ];
  const failed = results.filter((result) => result.status === 'fail');
  const legend = [
    '',
    'C = OpenAI Chat, R = OpenAI Responses, A = Anthropic Messages, G = Gemini, B = Bedrock Converse; client→upstream; each cell json/stream.',
    '`loss`: passes with the expected losses below (and exactly their warnings); `-`: not applicable.',
    '',
    'Expected losses:',
    ...EXPECTED_LOSSES.map((loss) => describeLoss(loss, (id) => SHORT[id])),
  ];
  if (failed.length > 0) {
    legend.push(
      '',
      'Failures:',
      ...failed.map((result) => `- ${result.scenario} ${label(`${result.client}>${result.upstream}`)} ${result.mode}: ${result.detail ?? ''}`),
    );
  }
  return [...lines, ...legend].join('\n');
}
