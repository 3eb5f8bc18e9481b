import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type SchemaNode, alternatives } from '../src/config/known-keys.js';
import { loadConfigFile } from '../src/config/load.js';
import { GatewayConfigSchema } from '../src/config/schema.js';
import { writeServiceAccountKey } from './helpers/cloud-mocks/google-token.js';

const EXAMPLE = join(dirname(fileURLToPath(import.meta.url)), '..', 'gateway.example.yaml');
const ENV = {
  CI_KEY: 'ci-key',
  GATEWAY_KEY: 'gateway-key',
  OPENAI_API_KEY: 'o',
  ANTHROPIC_API_KEY: 'a',
  GEMINI_API_KEY: 'g',
  GOOGLE_KEY_FILE: writeServiceAccountKey('http://127.0.0.1:9/token').path,
  VERTEX_ACCESS_TOKEN: 'v',
  AZURE_OPENAI_API_KEY: 'z',
  AZURE_CLIENT_SECRET: 's',
  AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'secret',
};

/**
 * Every schema field the example leaves out: each object in the example has every field its
 * schema has (inside a union, the object alternative when the example gives an object); in a
 * list or a record (`routes`, `upstreams`, written `*` here), one element showing a field is enough.
 */
function fieldsLeftOut(node: SchemaNode, value: unknown, path: string): string[] {
  const left: string[] = [];
  const join = (key: string) => (path ? `${path}.${key}` : key);
  for (const option of alternatives(node)) {
    const elements =
      option.type === 'array' && Array.isArray(value)
        ? value
        : option.type === 'record' && typeof value === 'object' && value !== null
          ? Object.values(value)
          : undefined;
    const elementSchema = option.item ?? option.value;
    if (option.entries && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [key, child] of Object.entries(option.entries)) {
        if (!(key in value)) left.push(join(key));
        else left.push(...fieldsLeftOut(child, (value as Record<string, unknown>)[key], join(key)));
      }
    } else if (elements && elementSchema) {
      const perElement = elements.map((element) => fieldsLeftOut(elementSchema, element, join('*')));
      // An element leaves a field out when it leaves out the field or an object holding it.
      const leavesOut = (fields: string[], field: string) => fields.some((other) => field === other || field.startsWith(`${other}.`));
      left.push(...new Set(perElement.flat().filter((field) => perElement.every((fields) => leavesOut(fields, field)))));
    }
  }
  return left;
}

describe('gateway.example.yaml', () => {
  it('is a valid config for the real loader', () => {
    const config = loadConfigFile(EXAMPLE, ENV);
    expect(config.keys).toEqual([
      { name: 'ci', key: 'ci-key' },
      { name: 'sha256:8cb1c6bc8952', key: 'gateway-key' },
    ]);
    expect(config.ledger).toEqual({ path: join(dirname(EXAMPLE), 'gateway-usage.db') });
    expect(config.routes[1]).toEqual({ match: 'fast', upstream: ['google', 'openai'], model: 'gemini-2.5-flash' });
  });

  it('shows every field the schema has (each upstream and route field on at least one of them)', () => {
    const raw = parse(readFileSync(EXAMPLE, 'utf8')) as Record<string, unknown>;
    expect(fieldsLeftOut(GatewayConfigSchema as unknown as SchemaNode, raw, '')).toEqual([]);
    // Routes: a fallback list and a renamed model are both shown.
    expect((raw.routes as { upstream: unknown }[]).some((route) => Array.isArray(route.upstream))).toBe(true);
  });
});
