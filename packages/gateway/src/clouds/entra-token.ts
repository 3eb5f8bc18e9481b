import type { Transport } from '../router-contract.js';
import type { IssuedToken } from './refreshing-token.js';
import { requestToken } from './token-endpoint.js';

/** Microsoft Entra ID's public-cloud authority (sovereign clouds set `authorityHost`). */
export const DEFAULT_AUTHORITY_HOST = 'https://login.microsoftonline.com';

/** The scope of Azure OpenAI (Azure AI services) tokens. */
export const COGNITIVE_SERVICES_SCOPE = 'https://cognitiveservices.azure.com/.default';

/** An app registration's client credentials. */
export interface EntraClient {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  authorityHost?: string;
}

/**
 * An Entra ID access token by the OAuth2 client-credentials grant, the plain HTTP call
 * `@azure/identity`'s `ClientSecretCredential` makes (`{authority}/{tenant}/oauth2/v2.0/token`),
 * without that package's dependency tree.
 */
export function entraClientToken(transport: Transport, client: EntraClient): () => Promise<IssuedToken> {
  const authority = (client.authorityHost ?? DEFAULT_AUTHORITY_HOST).replace(/\/+$/, '');
  const url = `${authority}/${encodeURIComponent(client.tenantId)}/oauth2/v2.0/token`;
  return () =>
    requestToken(transport, url, {
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: COGNITIVE_SERVICES_SCOPE,
    });
}
