import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createAccessLog } from './access-log.js';
import { createLogger } from './logger.js';

const collector = () => {
  const lines: string[] = [];
  return { lines, write: (text: string) => void lines.push(...text.split('\n').filter(Boolean)) };
};
const withoutTime = (line: string) => line.replace(/"time":\d+/, '"time":0');

describe('access log', () => {
  it('writes the very line pino writes for the same fields, key order included', () => {
    const out = collector();
    const logger = createLogger('info', out);
    const entry = {
      requestId: 'id "1"\n',
      method: 'POST',
      path: '/v1/messages?beta=true',
      protocol: 'claude',
      clientModel: 'c-"x"',
      upstream: 'a',
      upstreamModel: 'm',
      fallbacks: 1,
      attempts: 3,
      status: 200,
      ttfbMs: 3,
      ms: 250,
      inputTokens: 16,
      outputTokens: 6,
      cachedTokens: 4,
      errorKind: 'timeout',
      mcpCalls: [{ server: 'calc "1"', tool: 'add', ms: 12, isError: false }],
    };
    createAccessLog(logger)(entry);
    logger.info(entry, 'request');
    expect(out.lines).toHaveLength(2);
    expect(withoutTime(out.lines[0] as string)).toBe(withoutTime(out.lines[1] as string));
    expect(JSON.parse(out.lines[0] as string)).toEqual({ level: 30, time: expect.any(Number), name: 'llm-gateway', ...entry, msg: 'request' });
  });

  it('writes a 5xx at warn, as pino writes it', () => {
    const out = collector();
    const logger = createLogger('warn', out);
    const entry = { requestId: 'r', method: 'POST', path: '/v1/messages', protocol: 'claude', status: 502, ms: 9, errorKind: 'upstream' };
    createAccessLog(logger)(entry);
    createAccessLog(logger)({ requestId: 'ok', method: 'GET', status: 200 });
    logger.warn(entry, 'request');
    expect(out.lines).toHaveLength(2);
    expect(withoutTime(out.lines[0] as string)).toBe(withoutTime(out.lines[1] as string));
    expect(JSON.parse(out.lines[0] as string)).toMatchObject({ level: 40, requestId: 'r', status: 502 });
  });

  it("writes fields in one order whatever the entry object's order, for other loggers too", () => {
    const out = collector();
    const logger = pino({ timestamp: false, base: undefined }, out);
    createAccessLog(logger)({ status: 200, method: 'GET', requestId: 'r', ms: 1, protocol: 'gemini' });
    expect(out.lines).toEqual(['{"level":30,"requestId":"r","method":"GET","protocol":"gemini","status":200,"ms":1,"msg":"request"}']);
  });

  it('leaves out absent fields, as pino does', () => {
    const out = collector();
    const logger = createLogger('info', out);
    createAccessLog(logger)({ requestId: 'r', method: 'GET', status: 400 });
    logger.info({ requestId: 'r', method: 'GET', status: 400 }, 'request');
    expect(withoutTime(out.lines[0] as string)).toBe(withoutTime(out.lines[1] as string));
  });

  it('writes nothing below the logger level, and follows level changes', () => {
    const out = collector();
    const logger = createLogger('warn', out);
    const log = createAccessLog(logger);
    log({ requestId: 'r', method: 'GET', status: 200 });
    expect(out.lines).toEqual([]);
    logger.level = 'info';
    log({ requestId: 'r', method: 'GET', status: 200 });
    expect(out.lines).toHaveLength(1);
  });

  it('goes through logger.info for loggers the gateway did not make, in their own format', () => {
    const out = collector();
    const logger = pino({ messageKey: 'message', timestamp: false }, out);
    createAccessLog(logger)({ requestId: 'r', method: 'GET', status: 200 });
    expect(JSON.parse(out.lines[0] as string)).toEqual({
      level: 30,
      pid: process.pid,
      hostname: expect.any(String),
      requestId: 'r',
      method: 'GET',
      status: 200,
      message: 'request',
    });
  });
});
