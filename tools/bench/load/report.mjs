// results.json -> markdown tables (also: node load/report.mjs <results.json>).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const fmt = (v, d = 0) => (v === null || v === undefined || Number.isNaN(v) ? 'n/a' : Number(v).toFixed(d));

export function markdown(results) {
  const { conc } = results.machine;
  const rows = results.targets;
  const yard = rows.find((r) => r.name === 'yardstick-json');
  const direct = rows.find((r) => r.name === 'direct-mock');
  const lines = [];
  const repeated = (results.machine.repeat ?? 1) > 1;
  lines.push(
    `| target | pair | scenario | req/s | p50 ms | p99 ms | CPU µs/req | × yardstick CPU |${repeated ? ' CPU µs/req, all runs | peak RSS MB, all runs |' : ''} peak RSS MB | errors |`,
  );
  lines.push(`|---|---|---|--:|--:|--:|--:|--:|${repeated ? '---|---|' : ''}--:|--:|`);
  // The cells after the scenario column, left empty on a failed or stopped target's line.
  const blanks = ' |'.repeat(repeated ? 9 : 7);
  for (const row of rows) {
    if (row.error && !Object.keys(row.runs).length) {
      lines.push(`| ${row.name} | ${row.pair} | failed: ${row.error.slice(0, 120)} |${blanks}`);
      continue;
    }
    for (const [label, r] of Object.entries(row.runs)) {
      const base = yard?.runs[label]?.cpuUsPerReq;
      const ratio = base && r.cpuUsPerReq ? (r.cpuUsPerReq / base).toFixed(2) : 'n/a';
      const spread = repeated
        ? ` ${(r.cpuUsPerReqRuns ?? []).map((v) => fmt(v)).join(' / ')} | ${(r.peakRssMbRuns ?? []).map((v) => fmt(v)).join(' / ')} |`
        : '';
      lines.push(
        `| ${row.name} | ${row.pair} | ${label} c${conc} | ${fmt(r.rps)} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${fmt(r.cpuUsPerReq)} | ${ratio} |${spread} ${fmt(r.peakRssMb)} | ${r.errors} |`,
      );
    }
    if (row.error) lines.push(`| ${row.name} | ${row.pair} | stopped: ${row.error.slice(0, 120)} |${blanks}`);
  }
  lines.push('');
  lines.push(
    '| target | pair | RSS idle MB | RSS high-water MB | stream headers p50 ms | first token p50 ms | first token p99 ms | added TTFB p50 ms | round trip |',
  );
  lines.push('|---|---|--:|--:|--:|--:|--:|--:|---|');
  for (const row of rows) {
    const added = row.ttfb?.tokenP50 != null && direct?.ttfb?.tokenP50 != null && row !== direct ? fmt(row.ttfb.tokenP50 - direct.ttfb.tokenP50, 2) : '–';
    lines.push(
      `| ${row.name} | ${row.pair} | ${fmt(row.idleRssMb)} | ${fmt(row.hwmMb)} | ${fmt(row.ttfb?.headersP50, 2)} | ${fmt(row.ttfb?.tokenP50, 2)} | ${fmt(row.ttfb?.tokenP99, 2)} | ${added} | ${row.roundTrip ?? 'FAILED'} |`,
    );
  }
  if (results.openStreams.length) {
    lines.push('');
    lines.push('| target | pair | open streams | RSS idle MB | RSS with all open MB | peak RSS MB | first byte | completed | failed |');
    lines.push('|---|---|--:|--:|--:|--:|--:|--:|--:|');
    for (const r of results.openStreams) {
      if (r.error) lines.push(`| ${r.name} | ${r.pair} | failed: ${r.error} | | | | | | |`);
      else
        lines.push(
          `| ${r.name} | ${r.pair} | ${r.streams} | ${fmt(r.idleRssMb)} | ${fmt(r.allOpenRssMb)} | ${fmt(r.peakRssMb)} | ${r.gotFirstByte} | ${r.completed} | ${r.failed} |`,
        );
    }
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(markdown(JSON.parse(readFileSync(process.argv[2], 'utf8'))));
}
