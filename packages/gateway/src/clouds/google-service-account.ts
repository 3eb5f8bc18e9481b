import { createSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Transport } from '../router-contract.js';
import type { IssuedToken } from './refreshing-token.js';
import { requestToken } from './token-endpoint.js';

/** The OAuth2 scope Vertex AI takes. */
export const GOOGLE_CLOUD_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

/** Lifetime asked for in the signed assertion: Google's maximum, one hour. */
const ASSERTION_LIFETIME_S = 3600;

/** The fields of a service-account key file (JSON) that the token exchange uses. */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri: string;
}

/** Reads and checks a service-account key file; the error names the file and the missing field. */
export function readServiceAccountKey(path: string): ServiceAccountKey {
  let key: Partial<ServiceAccountKey> & { type?: unknown };
  try {
    key = JSON.parse(readFileSync(path, 'utf8')) as typeof key;
  } catch (error) {
    throw new Error(`cannot read the service-account key file ${path}: ${(error as Error).message}`);
  }
  for (const field of ['client_email', 'private_key', 'token_uri'] as const) {
    if (typeof key[field] !== 'string' || key[field] === '') throw new Error(`the key file ${path} has no ${field} (is it a service-account key?)`);
  }
  return key as ServiceAccountKey;
}

/**
 * Exchanges a service-account key for an access token: a JWT signed with the key (RS256) sent to
 * the key's own `token_uri` as a JWT-bearer grant (RFC 7523), as Google's libraries do. Written
 * here rather than through google-auth-library because that library posts to Google's fixed token
 * URL whatever the key file says, which leaves private deployments (and local tests) unreachable.
 */
export function serviceAccountToken(transport: Transport, key: ServiceAccountKey, now: () => number = Date.now): () => Promise<IssuedToken> {
  return () => {
    const issuedAt = Math.floor(now() / 1000);
    const header = { alg: 'RS256', typ: 'JWT', ...(key.private_key_id && { kid: key.private_key_id }) };
    const claims = { iss: key.client_email, scope: GOOGLE_CLOUD_SCOPE, aud: key.token_uri, iat: issuedAt, exp: issuedAt + ASSERTION_LIFETIME_S };
    const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
    const signature = createSign('RSA-SHA256').update(unsigned).sign(key.private_key).toString('base64url');
    return requestToken(transport, key.token_uri, { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: `${unsigned}.${signature}` });
  };
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}
