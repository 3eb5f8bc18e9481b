// An independent AWS Signature Version 4 check, written from the AWS spec with node:crypto only
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html),
// so the gateway's signatures (made with @smithy/signature-v4) are verified by other code.
import { createHash, createHmac } from 'node:crypto';
import type { MockHeaders } from './token-issuer.js';

export interface SigV4Expectation {
  region: string;
  service: string;
  /** Secret keys by access key id. */
  secrets: Readonly<Record<string, string>>;
  /** Session token each access key id must present (temporary credentials). */
  sessionTokens?: Readonly<Record<string, string>>;
  /** Longest clock difference accepted (AWS: 5 minutes). */
  maxSkewMs?: number;
}

const hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it: everything but `A-Za-z0-9-_.~` as %XX (upper case). */
function uriEncode(text: string): string {
  return Array.from(new TextEncoder().encode(text), (byte) => {
    const char = String.fromCharCode(byte);
    return /[A-Za-z0-9\-_.~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
}

/**
 * Why the request's signature is wrong, or undefined when AWS would accept it. `rawPath` is the
 * request target's path as sent (still percent-encoded): for every service but S3 each segment
 * is encoded again in the canonical request.
 */
export function sigV4Problem(
  method: string,
  rawPath: string,
  query: URLSearchParams,
  headers: MockHeaders,
  body: Buffer,
  expect: SigV4Expectation,
): string | undefined {
  const auth = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
    headers.get('authorization') ?? '',
  );
  if (!auth) return 'authorization header';
  const [, keyId, date, region, service, signedList, signature] = auth as unknown as string[];
  const secret = expect.secrets[keyId as string];
  if (secret === undefined) return 'unknown access key';
  if (region !== expect.region || service !== expect.service) return 'credential scope';
  const amzDate = headers.get('x-amz-date') ?? '';
  if (!/^\d{8}T\d{6}Z$/.test(amzDate) || amzDate.slice(0, 8) !== date) return 'x-amz-date';
  const at = Date.UTC(
    +amzDate.slice(0, 4),
    +amzDate.slice(4, 6) - 1,
    +amzDate.slice(6, 8),
    +amzDate.slice(9, 11),
    +amzDate.slice(11, 13),
    +amzDate.slice(13, 15),
  );
  if (Math.abs(Date.now() - at) > (expect.maxSkewMs ?? 300_000)) return 'request time too skewed';
  const signed = (signedList as string).split(';');
  if (!signed.includes('host') || !signed.includes('x-amz-date')) return 'host and x-amz-date must be signed';
  const token = expect.sessionTokens?.[keyId as string];
  if (token !== undefined && (headers.get('x-amz-security-token') !== token || !signed.includes('x-amz-security-token'))) return 'session token';
  const canonicalUri = rawPath.split('/').map(uriEncode).join('/');
  const canonicalQuery = [...query]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)])
    .sort(([a, x], [b, y]) => (a === b ? (x! < y! ? -1 : 1) : a! < b! ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalHeaders = signed.map((name) => `${name}:${(headers.get(name) ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonicalRequest = [method, canonicalUri, canonicalQuery, canonicalHeaders, signedList, hex(body)].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date as string), region as string), service as string), 'aws4_request');
  return createHmac('sha256', key).update(stringToSign).digest('hex') === signature ? undefined : 'signature mismatch';
}
