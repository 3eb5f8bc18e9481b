import type { GatewayConfig } from '../config/schema.js';
import { awsCredentials, awsRegion } from './aws-credentials.js';
import type { ConfiguredUpstream, Env } from './cloud-adapter.js';
import { readServiceAccountKey } from './google-service-account.js';

/** The protocols each cloud serves here. */
const PROTOCOLS: Readonly<Record<NonNullable<ConfiguredUpstream['flavor']>, readonly string[]>> = {
  azure: ['openai-chat', 'openai-responses'],
  vertex: ['gemini', 'claude'],
  bedrock: ['claude', 'bedrock-converse'],
};

/** The fields of each cloud; setting another cloud's is a mistake worth naming. */
const CLOUD_FIELDS = {
  vertex: ['project', 'location', 'keyFile', 'accessToken'],
  azure: ['apiVersion', 'tenantId', 'clientId', 'clientSecret', 'authorityHost'],
  bedrock: ['region', 'accessKeyId', 'secretAccessKey', 'sessionToken', 'awsCredentialChain'],
} as const satisfies Record<NonNullable<ConfiguredUpstream['flavor']>, readonly (keyof ConfiguredUpstream)[]>;

type CloudField = (typeof CLOUD_FIELDS)[keyof typeof CLOUD_FIELDS][number];
const FLAVOR_OF_FIELD = new Map<CloudField, string>(
  Object.entries(CLOUD_FIELDS).flatMap(([flavor, fields]) => fields.map((field) => [field, flavor] as const)),
);

/**
 * What the schema alone cannot say about upstreams: `baseUrl` is required unless a cloud derives
 * it; each `flavor` needs its own fields and credentials, and a protocol it serves. A Vertex key
 * file is read here, so a missing or malformed one fails the load (or a reload), not a request.
 */
export function cloudUpstreamProblems(upstreams: GatewayConfig['upstreams'], env: Env): string[] {
  const problems: string[] = [];
  for (const [name, upstream] of Object.entries(upstreams)) {
    const at = (field: string) => `upstreams.${name}.${field}`;
    const { flavor } = upstream;
    for (const [field, owner] of FLAVOR_OF_FIELD) {
      if (upstream[field] !== undefined && owner !== flavor) problems.push(`${at(field)}: only with flavor ${owner}`);
    }
    if (!flavor) {
      if (upstream.baseUrl === undefined) problems.push(`${at('baseUrl')}: required`);
      // Converse answers streams as AWS event streams, which only the Bedrock adapter re-frames.
      if (upstream.protocol === 'bedrock-converse') problems.push(`${at('flavor')}: protocol bedrock-converse needs flavor bedrock`);
      continue;
    }
    if (!PROTOCOLS[flavor].includes(upstream.protocol)) problems.push(`${at('protocol')}: flavor ${flavor} serves ${PROTOCOLS[flavor].join(' or ')}`);
    problems.push(...flavorProblems(flavor, upstream, env).map(([field, message]) => `${at(field)}: ${message}`));
  }
  return problems;
}

function flavorProblems(flavor: NonNullable<ConfiguredUpstream['flavor']>, upstream: ConfiguredUpstream, env: Env): [string, string][] {
  const problems: [string, string][] = [];
  switch (flavor) {
    case 'vertex':
      if (!upstream.project) problems.push(['project', 'required with flavor vertex']);
      if (!upstream.location) problems.push(['location', 'required with flavor vertex (a region such as us-east5, or global)']);
      if (upstream.keyFile !== undefined && upstream.accessToken !== undefined) problems.push(['accessToken', 'name a keyFile or an accessToken, not both']);
      if (upstream.apiKey !== undefined)
        problems.push(['apiKey', 'Vertex takes OAuth2 tokens: use keyFile or accessToken (neither: Application Default Credentials)']);
      if (upstream.keyFile !== undefined) {
        try {
          readServiceAccountKey(upstream.keyFile);
        } catch (error) {
          problems.push(['keyFile', (error as Error).message]);
        }
      }
      break;
    case 'azure': {
      if (upstream.baseUrl === undefined) problems.push(['baseUrl', 'required with flavor azure (https://{resource}.openai.azure.com)']);
      const entra = [upstream.tenantId, upstream.clientId, upstream.clientSecret].filter((value) => value !== undefined).length;
      if (entra > 0 && entra < 3) problems.push(['tenantId', 'Entra ID needs tenantId, clientId and clientSecret together']);
      if (entra === 3 && upstream.apiKey !== undefined) problems.push(['apiKey', 'name an apiKey or Entra ID credentials (tenantId...), not both']);
      if (entra === 0 && upstream.apiKey === undefined)
        problems.push(['apiKey', 'required with flavor azure, unless tenantId, clientId and clientSecret name an Entra ID client']);
      break;
    }
    case 'bedrock':
      if (awsRegion(upstream, env) === undefined) problems.push(['region', 'required with flavor bedrock (or set AWS_REGION)']);
      if ((upstream.accessKeyId === undefined) !== (upstream.secretAccessKey === undefined))
        problems.push(['accessKeyId', 'accessKeyId and secretAccessKey go together']);
      else if (upstream.awsCredentialChain) {
        if (upstream.accessKeyId !== undefined) problems.push(['awsCredentialChain', 'name a static key (accessKeyId...) or the credential chain, not both']);
      } else if (awsCredentials(upstream, env) === undefined)
        problems.push([
          'accessKeyId',
          'required with flavor bedrock (or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, an AWS_PROFILE of ~/.aws/credentials, or awsCredentialChain: true)',
        ]);
      if (upstream.sessionToken && upstream.accessKeyId === undefined) problems.push(['sessionToken', 'only with accessKeyId and secretAccessKey']);
      if (upstream.apiKey !== undefined) problems.push(['apiKey', 'Bedrock signs with AWS credentials: use accessKeyId and secretAccessKey']);
      break;
  }
  return problems;
}
