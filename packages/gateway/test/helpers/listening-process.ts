import { type ChildProcess, spawn } from 'node:child_process';

/** A CLI process (`serve`, `mock`) started by a test, once it has printed its address. */
export interface ListeningProcess {
  url: string;
  child: ChildProcess;
  /** Its exit code, once it has exited and its output is all read. */
  exited: Promise<number | null>;
  /** Everything it has written so far. */
  stdout(): string;
  stderr(): string;
}

/**
 * Runs `node <args>` and resolves once its output names the address it listens on ("… listening
 * on http://…"); rejects with its output if it exits first.
 */
export function startListening(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<ListeningProcess> {
  const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let stdout = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    const check = () => {
      // The banner is on stderr (stdout carries JSON log lines only); a mock prints on stdout.
      const url = /listening on (http:\/\/[^\s)]+)/.exec(stderr + stdout)?.[1];
      if (url) resolve({ url, child, exited, stdout: () => stdout, stderr: () => stderr });
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      check();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      check();
    });
    void exited.then((code) => reject(new Error(`exited (${code}) before listening:\n${stdout}${stderr}`)));
  });
}
