import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseConfig, toRouterConfig } from '../src/config/load.js';
import { writeServiceAccountKey } from './helpers/cloud-mocks/google-token.js';

const readme = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Cloud upstreams'), readme.indexOf('## HTTP surface'));
const examples = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
const ENV = {
  AZURE_OPENAI_API_KEY: 'k',
  AZURE_TENANT_ID: 't',
  AZURE_CLIENT_ID: 'c',
  AZURE_CLIENT_SECRET: 's',
  AWS_ACCESS_KEY_ID: 'a',
  AWS_SECRET_ACCESS_KEY: 'b',
};

describe('README cloud examples', () => {
  it('has one per cloud, each a valid config whose routes reach the cloud endpoint', () => {
    const keyFile = writeServiceAccountKey('https://oauth2.googleapis.com/token').path;
    const bases = examples.map((yaml) => {
      const config = parseConfig(yaml.replaceAll('/etc/gateway/vertex-sa.json', keyFile), ENV);
      return Object.values(toRouterConfig(config, ENV).upstreams).map((upstream) => upstream.baseUrl);
    });
    expect(bases).toEqual([
      [
        'https://aiplatform.googleapis.com/llm-gateway-upstream/gemini-on-vertex',
        'https://us-east5-aiplatform.googleapis.com/llm-gateway-upstream/claude-on-vertex',
      ],
      ['https://my-resource.openai.azure.com/llm-gateway-upstream/azure', 'https://my-resource.openai.azure.com/llm-gateway-upstream/azure-v1'],
      ['https://bedrock-runtime.us-east-1.amazonaws.com/llm-gateway-upstream/bedrock'],
      ['https://bedrock-runtime.us-west-2.amazonaws.com/llm-gateway-upstream/converse'],
    ]);
  });
});
