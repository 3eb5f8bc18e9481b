#!/usr/bin/env node
// Packs the llm-gateway CLI as one tarball that `npm install -g` takes from any directory, with
// no workspace and no registry package of ours: the bundled bin (dist/cli.js holds the gateway,
// the codecs and their dependencies), `yaml` bundled inside the tarball, and better-sqlite3 left
// an optional dependency (Node 22.13+ uses node:sqlite; `--omit=optional` skips it).
//
//   node packages/gateway/scripts/pack-standalone.mjs [--out DIR]   (build first: pnpm build)
//   npm install -g ./llm-gateway-standalone-<version>.tgz
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const outDir = resolve(values.out ?? '.');
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
if (!existsSync(join(packageDir, 'dist/cli.js'))) throw new Error('dist/cli.js is missing: build first (pnpm build)');

/** Dependencies the bundled bin imports only when the config asks for them. */
const LOADED_WHEN_CONFIGURED = [
  'pg',
  'ioredis',
  'google-auth-library',
  '@smithy/core',
  '@smithy/signature-v4',
  '@aws-crypto/sha256-js',
  '@aws-sdk/credential-provider-node',
];

function pick(from, names) {
  return Object.fromEntries(names.map((name) => [name, from[name]]));
}

const stage = mkdtempSync(join(tmpdir(), 'llm-gateway-standalone-'));
try {
  for (const file of ['dist/cli.js', 'dist/cli.licenses.txt', 'README.md', 'LICENSE', 'gateway.example.yaml']) {
    mkdirSync(dirname(join(stage, file)), { recursive: true });
    cpSync(join(packageDir, file), join(stage, file));
  }
  // The dashboard's page, script, styles and Chart.js, which the bin serves at /ui.
  cpSync(join(packageDir, 'dist/ui'), join(stage, 'dist/ui'), { recursive: true });
  // yaml has no dependencies and no install script: bundled, the install needs no registry for it.
  const yamlDir = realpathSync(dirname(createRequire(join(packageDir, 'package.json')).resolve('yaml/package.json')));
  cpSync(yamlDir, join(stage, 'node_modules/yaml'), { recursive: true });
  const standalone = {
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    license: manifest.license,
    type: 'module',
    bin: { 'llm-gateway': './dist/cli.js' },
    engines: manifest.engines,
    repository: manifest.repository,
    dependencies: { yaml: manifest.dependencies.yaml },
    // Loaded only when configured, never bundled: PostgreSQL / Redis stores and the cloud upstreams'
    // signing and token libraries. Optional, so `--omit=optional` installs without the registry.
    optionalDependencies: { ...manifest.optionalDependencies, ...pick(manifest.dependencies, LOADED_WHEN_CONFIGURED) },
    bundleDependencies: ['yaml'],
  };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(standalone, null, 2)}\n`);
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', stage], { cwd: stage, encoding: 'utf8' }).trim().split('\n').pop();
  mkdirSync(outDir, { recursive: true });
  const target = join(outDir, `llm-gateway-standalone-${manifest.version}.tgz`);
  renameSync(join(stage, packed), target);
  process.stdout.write(`${target}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
