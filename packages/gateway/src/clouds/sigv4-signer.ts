import type { AwsCredentialProvider, AwsCredentials } from './aws-credentials.js';

/** What is signed and sent: the request's URL, method, headers and body. */
export interface SignableRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

/**
 * Signs requests with AWS Signature Version 4 (`@smithy/signature-v4` over `@aws-crypto/sha256-js`,
 * the AWS SDK's own pair), loaded on the first signature. Every header sent is signed; the
 * returned headers carry `authorization`, `x-amz-date` and, for temporary credentials,
 * `x-amz-security-token`. The `host` header is signed but left for the HTTP client to send.
 * `credentials` may be a provider (the SDK's chain): the signer asks it on each signature.
 */
export function sigV4Signer(
  service: string,
  region: string,
  credentials: AwsCredentials | AwsCredentialProvider,
): (request: SignableRequest) => Promise<Record<string, string>> {
  let signer: Promise<{ sign(request: unknown): Promise<{ headers: Record<string, string> }> }> | undefined;
  return async (request) => {
    signer ??= Promise.all([import('@smithy/signature-v4'), import('@aws-crypto/sha256-js')]).then(
      ([{ SignatureV4 }, { Sha256 }]) => new SignatureV4({ service, region, credentials, sha256: Sha256 }),
    );
    const url = new URL(request.url);
    const query: Record<string, string> = {};
    for (const [name, value] of url.searchParams) query[name] = value;
    const signed = await (await signer).sign({
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port && { port: Number(url.port) }),
      path: url.pathname,
      query,
      headers: { ...request.headers, host: url.host },
      body: request.body,
    });
    const { host: _host, ...headers } = signed.headers;
    return headers;
  };
}
