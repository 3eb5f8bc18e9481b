// One loopback server playing the three clouds and their token endpoints, each checking what the
// real service checks (see each module): Google's token endpoint (`POST /google/token`, the key
// file's token_uri), Entra ID (`POST /{tenant}/oauth2/v2.0/token`), Vertex (`/v1/projects/...`),
// Azure OpenAI (`/openai/...`), Bedrock InvokeModel (`/model/.../invoke`) and Converse
// (`/model/.../converse`). Every call is recorded.
import { serveNode } from '../../../src/server/node-adapter.js';
import { type SeenAzureCall, azureHandler } from './azure-mock.js';
import { type SeenBedrockCall, bedrockHandler } from './bedrock-mock.js';
import { type SeenConverseCall, converseHandler } from './converse-mock.js';
import { googleTokenIssuer, writeServiceAccountKey } from './google-token.js';
import { type MockHeaders, type TokenIssuer, issuer } from './token-issuer.js';
import { type SeenVertexCall, vertexHandler } from './vertex-mock.js';

export const VERTEX = { project: 'my-project', location: 'us-east5', staticToken: 'static-vertex-token' };
export const AZURE = { apiVersion: '2024-10-21', apiKey: 'azure-key', tenantId: 'tenant-1', clientId: 'client-1', clientSecret: 'client-secret' };
export const AWS = {
  region: 'us-east-1',
  accessKeyId: 'AKIDMOCK',
  secretAccessKey: 'mock-secret',
  tempKeyId: 'ASIAMOCK',
  tempSecret: 'temp-secret',
  sessionToken: 'session-token',
};

export interface CloudMock {
  url: string;
  /** The service-account key file whose token_uri is this mock's. */
  keyFile: string;
  google: TokenIssuer;
  entra: TokenIssuer;
  vertexCalls: SeenVertexCall[];
  azureCalls: SeenAzureCall[];
  bedrockCalls: SeenBedrockCall[];
  converseCalls: SeenConverseCall[];
  close(): Promise<void>;
}

/** Starts the cloud mock; its tokens live `tokenLifetimeS` seconds. */
export async function startCloudMock(tokenLifetimeS = 3600): Promise<CloudMock> {
  let handle: (url: URL, headers: MockHeaders, text: string, method: string) => Promise<Response> = async () => new Response('starting', { status: 503 });
  const server = await serveNode(
    async (call) => {
      const headers: MockHeaders = { get: (name) => call.headers.get(name), has: (name) => call.headers.get(name) !== null };
      return handle(new URL(call.url), headers, await call.text(), call.method);
    },
    { port: 0, host: '127.0.0.1' },
  );
  const tokenUri = `${server.url}/google/token`;
  const key = writeServiceAccountKey(tokenUri);
  const google = googleTokenIssuer(tokenUri, key.publicKey, tokenLifetimeS);
  const entra = issuer('entra-', tokenLifetimeS, (form) =>
    form.get('grant_type') === 'client_credentials' &&
    form.get('client_id') === AZURE.clientId &&
    form.get('client_secret') === AZURE.clientSecret &&
    form.get('scope') === 'https://cognitiveservices.azure.com/.default'
      ? undefined
      : 'client credentials',
  );
  const mock: CloudMock = {
    url: server.url,
    keyFile: key.path,
    google,
    entra,
    vertexCalls: [],
    azureCalls: [],
    bedrockCalls: [],
    converseCalls: [],
    close: () => server.close(),
  };
  const vertex = vertexHandler({ project: VERTEX.project, location: VERTEX.location, tokens: google, staticToken: VERTEX.staticToken }, mock.vertexCalls);
  const azure = azureHandler({ apiVersion: AZURE.apiVersion, apiKey: AZURE.apiKey, tokens: entra }, mock.azureCalls);
  const awsSigning = {
    region: AWS.region,
    service: 'bedrock',
    secrets: { [AWS.accessKeyId]: AWS.secretAccessKey, [AWS.tempKeyId]: AWS.tempSecret },
    sessionTokens: { [AWS.tempKeyId]: AWS.sessionToken },
  };
  const bedrock = bedrockHandler(awsSigning, mock.bedrockCalls);
  const converse = converseHandler(awsSigning, mock.converseCalls);
  handle = async (url, headers, text, method) => {
    if (method !== 'POST') return new Response('method', { status: 405 });
    const form = () => new URLSearchParams(text);
    const tokenAnswer = (tokens: TokenIssuer) => {
      const { status, body } = tokens.issue(form());
      return Response.json(body, { status });
    };
    if (url.pathname === '/google/token') return tokenAnswer(google);
    if (url.pathname === `/${AZURE.tenantId}/oauth2/v2.0/token`) return tokenAnswer(entra);
    if (url.pathname.startsWith('/v1/projects/')) return vertex(url, headers, text);
    if (url.pathname.startsWith('/openai/')) return azure(url, headers, text);
    if (/^\/model\/[^/]+\/converse(-stream)?$/.test(url.pathname)) return converse(url, headers, text);
    if (url.pathname.startsWith('/model/')) return bedrock(url, headers, text);
    return new Response('no such cloud path', { status: 404 });
  };
  return mock;
}
