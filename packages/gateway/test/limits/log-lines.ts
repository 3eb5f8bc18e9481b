import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../../src/logger.js';

/** A logger whose lines a test reads back: each as `{level, msg, ...}` without time, pid, host. */
export function recordingLogger(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const written: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString());
      done();
    },
  });
  const logger = createLogger('debug', destination as never);
  const lines = () =>
    written
      .join('')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => {
        const { time: _time, pid: _pid, hostname: _hostname, name: _name, ...rest } = JSON.parse(line) as Record<string, unknown>;
        return rest;
      });
  return { logger, lines };
}
