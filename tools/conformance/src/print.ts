// `pnpm --filter @llm/conformance matrix`: runs the matrix and prints the pairs x scenarios table.
import { runMatrix } from './matrix.js';
import { renderTable } from './table.js';

const started = performance.now();
const results = await runMatrix();
console.log(renderTable(results));
console.log(`\n${results.length} cells in ${Math.round(performance.now() - started)} ms`);
if (results.some((result) => result.status === 'fail')) process.exitCode = 1;
