// Runs one codec suite's request case in a loop, for `node --cpu-prof`:
// tsx --conditions=@llm/source src/profile-request.ts openai-chat "500 KB" [seconds]
import type { BenchCase } from './harness.js';

const [suiteName = 'openai-chat', size = '500 KB', seconds = '4'] = process.argv.slice(2);
const suite = (await import(`./suites/${suiteName}.ts`)) as { cases(): BenchCase[] | Promise<BenchCase[]> };
const found = (await suite.cases()).find((item) => item.name.includes(`request ${size}`));
if (!found) throw new Error(`no request case of ${size} in ${suiteName}`);
const until = Date.now() + Number(seconds) * 1000;
let runs = 0;
while (Date.now() < until) {
  found.run(found.wire);
  runs++;
}
console.error(`${found.name}: ${runs} runs`);
