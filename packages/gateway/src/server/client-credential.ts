import { type AuthScheme, type HeaderReader, readCredential } from '@llm/core';
import type { ClientProtocol } from '../served-protocols.js';

const ALL_SCHEMES: readonly AuthScheme[] = ['bearer', 'x-api-key', 'x-goog-api-key', 'query-key'];

/** The access key id of a SigV4 `Authorization` header: `AWS4-HMAC-SHA256 Credential=<key id>/<date>/...`. */
const SIGV4_KEY_ID = /^AWS4-HMAC-SHA256\s+Credential=([^/,\s]+)\//;

/**
 * The gateway key a client presents, in any protocol's native form (bearer, `x-api-key`,
 * `x-goog-api-key`, `?key=`). A Converse client of the AWS SDK signs with SigV4: its access key
 * id is the gateway key (the secret and the signature are not checked: the gateway holds no AWS
 * secrets of its clients; the key travels as it does in a bearer token, so TLS matters alike).
 */
export function presentedKey(protocol: ClientProtocol | undefined, headers: HeaderReader, url: URL): string | undefined {
  if (protocol === 'bedrock-converse') {
    const keyId = SIGV4_KEY_ID.exec(headers.get('authorization') ?? '')?.[1];
    if (keyId) return keyId;
  }
  return readCredential(ALL_SCHEMES, headers, url);
}
