// The import boundaries that biome.json enforces, checked against the real configuration and the
// real tree: each case writes a throw-away module into a package's src, lints it with the pinned
// biome and compares every diagnostic, then removes the module. Probes are `.mjs` so that a
// package's tsc, tsup and vitest (which may run at the same time under turbo) never see them.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const biome = join(root, 'node_modules', '.bin', 'biome');

const CODEC = 'A codec knows other protocols only through @llm/core: it imports no other codec, router or gateway.';
const CORE = '@llm/core is the base of every package and imports none of them.';
const ROUTER = 'The router is runtime-neutral: the gateway builds on it, never the reverse.';
const NODE = 'This import references a Node.js builtin module.';

interface Finding {
  line: number;
  rule: string;
  message: string;
}

interface JsonDiagnostic {
  category: string;
  message: string;
  location: { start?: { line: number } };
}

/** Lints `source` as a new module in `folder` (relative to the repository root); every diagnostic, by line then rule. */
function lintProbe(folder: string, source: string): Finding[] {
  const file = join(folder, `lint-probe-${process.pid}.mjs`);
  writeFileSync(join(root, file), source);
  try {
    let output: string;
    try {
      output = execFileSync(biome, ['lint', '--reporter=json', '--max-diagnostics=none', file], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      // Non-zero exit when an error-level rule fires; the report is on stdout all the same.
      output = (error as { stdout: string }).stdout;
    }
    const report = JSON.parse(output) as { diagnostics: JsonDiagnostic[] };
    return report.diagnostics
      .map((diagnostic) => ({ line: diagnostic.location.start?.line ?? 0, rule: diagnostic.category, message: diagnostic.message }))
      .sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
  } finally {
    rmSync(join(root, file), { force: true });
  }
}

const restricted = (line: number, message: string): Finding => ({ line, rule: 'lint/style/noRestrictedImports', message });
const nodeModule = (line: number): Finding => ({ line, rule: 'lint/correctness/noNodejsModules', message: NODE });

describe('codec sources import only @llm/core', () => {
  it('reports a codec importing another codec (the case the rule exists for)', () => {
    expect(lintProbe('packages/gemini/src', "import { decodeRequest } from '@llm/claude';\nexport const probe = decodeRequest;\n")).toEqual([
      restricted(1, CODEC),
    ]);
  });

  it('reports the router and the gateway, in imports, re-exports and dynamic imports', () => {
    const source = ["import '@llm/openai-chat';", "export { bridge } from '@llm/router';", "export const load = () => import('@llm/gateway');", ''].join('\n');
    expect(lintProbe('packages/claude/src', source)).toEqual([restricted(1, CODEC), restricted(2, CODEC), restricted(3, CODEC)]);
  });

  it('reports Node.js modules, with or without the node: prefix', () => {
    const source = ["import { readFileSync } from 'node:fs';", "import { join } from 'path';", 'export const probe = [readFileSync, join];', ''].join('\n');
    expect(lintProbe('packages/openai-responses/src', source)).toEqual([
      nodeModule(1),
      nodeModule(2),
      // The recommended set also asks for the prefix; the import stays forbidden either way.
      { line: 2, rule: 'lint/style/useNodejsImportProtocol', message: 'A Node.js builtin module should be imported with the node: protocol.' },
    ]);
  });

  it('accepts @llm/core and its subpaths', () => {
    const source = ["import { LlmError } from '@llm/core';", "export * from '@llm/core/kit';", 'export const probe = LlmError;', ''].join('\n');
    expect(lintProbe('packages/openai-chat/src', source)).toEqual([]);
  });
});

describe('core imports no @llm package and no Node.js module', () => {
  it('reports both', () => {
    const source = ["import { bridge } from '@llm/router';", "import { Buffer } from 'node:buffer';", 'export const probe = [bridge, Buffer];', ''].join('\n');
    expect(lintProbe('packages/core/src/json-schema', source)).toEqual([restricted(1, CORE), nodeModule(2)]);
  });
});

describe('the router imports no gateway and no Node.js module', () => {
  it('reports both', () => {
    const source = ["import { serve } from '@llm/gateway';", "import { createHash } from 'node:crypto';", 'export const probe = [serve, createHash];', ''].join(
      '\n',
    );
    expect(lintProbe('packages/router/src', source)).toEqual([restricted(1, ROUTER), nodeModule(2)]);
  });

  it('accepts the codecs and core', () => {
    const source = ["import { claude } from '@llm/claude';", "import { LlmError } from '@llm/core';", 'export const probe = [claude, LlmError];', ''].join(
      '\n',
    );
    expect(lintProbe('packages/router/src', source)).toEqual([]);
  });
});

describe('the gateway is the Node.js host', () => {
  it('may import the router and Node.js modules', () => {
    const source = [
      "import { createServer } from 'node:http';",
      "import { createRouter } from '@llm/router';",
      'export const probe = [createServer, createRouter];',
      '',
    ].join('\n');
    expect(lintProbe('packages/gateway/src', source)).toEqual([]);
  });
});
