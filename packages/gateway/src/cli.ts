#!/usr/bin/env node
import { runCli } from './cli/run.js';
import { tuneServeProcess } from './cli/runtime-tuning.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const code = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  readStdin,
  env: process.env,
  tuneServeProcess,
});
process.exitCode = code;
