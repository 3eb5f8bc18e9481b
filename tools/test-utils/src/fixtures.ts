// The wire corpus of real captures (a committed snapshot of ../shared/fixtures, refreshed with
// `pnpm --filter @llm/test-utils sync-fixtures`): tests read it through these helpers, so a clone
// anywhere tests the same bytes, and never copy it into packages.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
/** A protocol id (kept local: core's tests use these helpers, so they cannot import core). */
export type ProtocolId = 'openai-chat' | 'openai-responses' | 'claude' | 'gemini';
import { parse as parseYaml } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
/** Repository root (tools/test-utils/src -> ../../..). */
export const repoRoot = resolve(here, '../../..');

/** The corpus: `$LLM_FIXTURES_DIR` (e.g. a newer shared folder's `fixtures`), else the committed snapshot. */
export const fixturesRoot = process.env.LLM_FIXTURES_DIR ?? resolve(here, '../fixtures');

/** Folder of one protocol's captures. */
export function fixturesDir(protocol: ProtocolId): string {
  return join(fixturesRoot, protocol);
}

/**
 * Paths (relative to the protocol folder, e.g. `vercel-ai/openai-text.json`) of every fixture of a
 * protocol whose name ends with one of `suffixes`, sorted.
 */
export function listFixtures(protocol: ProtocolId, suffixes: readonly string[]): string[] {
  const root = fixturesDir(protocol);
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (suffixes.some((suffix) => name.endsWith(suffix))) found.push(relative(root, path));
    }
  };
  walk(root);
  return found.sort();
}

/** A fixture's text. */
export function readFixtureText(protocol: ProtocolId, path: string): string {
  return readFileSync(join(fixturesDir(protocol), path), 'utf8');
}

/** A fixture's bytes. */
export function readFixtureBytes(protocol: ProtocolId, path: string): Uint8Array {
  return new Uint8Array(readFileSync(join(fixturesDir(protocol), path)));
}

/** A JSON fixture, parsed. */
export function readFixtureJson(protocol: ProtocolId, path: string): unknown {
  return JSON.parse(readFixtureText(protocol, path));
}

/**
 * The SSE data payloads of a vercel-ai `*.chunks.txt` file: one JSON payload per line, with or
 * without a `data:` prefix. Several streams of a multi-step run may be concatenated.
 */
export function readChunkPayloads(protocol: ProtocolId, path: string): string[] {
  return readFixtureText(protocol, path)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('event:'))
    .map((line) => (line.startsWith('data:') ? line.slice(5).trim() : line));
}

/** One recorded HTTP exchange of a VCR cassette (pydantic-ai fixtures). */
export interface CassetteInteraction {
  request: { method: string; uri: string; headers: Record<string, string[]>; body: unknown };
  response: { status: number; headers: Record<string, string[]>; body: unknown; text: string | undefined };
}

/**
 * The interactions of a pydantic-ai VCR cassette. Bodies are parsed JSON when they are JSON
 * (`parsed_body`), else the raw string (SSE streams stay raw text in `response.text`).
 */
export function readCassette(protocol: ProtocolId, path: string): CassetteInteraction[] {
  const document = parseYaml(readFixtureText(protocol, path)) as { interactions?: unknown[] };
  return (document.interactions ?? []).map((entry) => {
    // biome-ignore lint/suspicious/noExplicitAny: recorded YAML of any shape; the cassette type below is what callers see
    const item = entry as Record<string, any>;
    const request = item.request ?? {};
    const response = item.response ?? {};
    const responseText: string | undefined = typeof response.body?.string === 'string' ? response.body.string : undefined;
    let responseBody: unknown = response.parsed_body;
    if (responseBody === undefined && responseText !== undefined) {
      try {
        responseBody = JSON.parse(responseText);
      } catch {
        responseBody = responseText;
      }
    }
    let requestBody: unknown = request.parsed_body;
    if (requestBody === undefined && typeof request.body === 'string') {
      try {
        requestBody = JSON.parse(request.body);
      } catch {
        requestBody = request.body;
      }
    }
    return {
      request: { method: request.method, uri: request.uri, headers: request.headers ?? {}, body: requestBody },
      response: {
        status: response.status?.code ?? 200,
        headers: response.headers ?? {},
        body: responseBody,
        text: responseText,
      },
    };
  });
}
