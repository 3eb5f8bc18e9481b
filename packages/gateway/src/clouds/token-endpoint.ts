import type { Transport } from '../router-contract.js';
import type { IssuedToken } from './refreshing-token.js';

/** Longest wait for a token endpoint's answer (the token fetch holds up the request it serves). */
export const TOKEN_REQUEST_TIMEOUT_MS = 30_000;

/** A token endpoint refused or failed: the detail is for the log (the router's `cause`), never the client. */
export class TokenRequestFailed extends Error {
  override readonly name = 'TokenRequestFailed';
}

/**
 * POSTs an OAuth2 token request (form-encoded: a JWT-bearer or client-credentials grant) through
 * the gateway's own transport (its pool and proxy settings) and reads the standard answer,
 * `{access_token, expires_in}` (RFC 6749 section 5.1).
 */
export async function requestToken(transport: Transport, url: string, form: Record<string, string>): Promise<IssuedToken> {
  const signal = AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS);
  const response = await transport({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
    signal,
  });
  const text = await response.text();
  if (response.status !== 200) throw new TokenRequestFailed(`token endpoint ${url} answered HTTP ${response.status}: ${text.slice(0, 500)}`);
  let answer: { access_token?: unknown; expires_in?: unknown };
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    throw new TokenRequestFailed(`token endpoint ${url} answered with a body that is not JSON`);
  }
  const expiresIn = Number(answer.expires_in);
  if (typeof answer.access_token !== 'string' || answer.access_token === '' || !Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw new TokenRequestFailed(`token endpoint ${url} answered without access_token and a positive expires_in`);
  }
  return { token: answer.access_token, lifetimeMs: expiresIn * 1000 };
}
