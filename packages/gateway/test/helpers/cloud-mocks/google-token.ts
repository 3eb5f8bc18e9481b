// A service-account key of our own making and the token endpoint its `token_uri` names: the mock
// checks the JWT-bearer grant as Google does (RS256 signature by the key, `aud` = the token URI,
// the cloud-platform scope, a live `iat`/`exp`) and issues short-lived tokens.
import { createVerify, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TokenIssuer, issuer } from './token-issuer.js';

export const SERVICE_ACCOUNT_EMAIL = 'gateway@my-project.iam.gserviceaccount.com';

/** A fresh RSA key pair written as a service-account key file pointing at `tokenUri`. */
export function writeServiceAccountKey(tokenUri: string): { path: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = {
    type: 'service_account',
    project_id: 'my-project',
    private_key_id: 'key-1',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: SERVICE_ACCOUNT_EMAIL,
    token_uri: tokenUri,
  };
  const path = join(mkdtempSync(join(tmpdir(), 'llm-gateway-sa-')), 'key.json');
  writeFileSync(path, JSON.stringify(key));
  return { path, publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/** Why a JWT-bearer grant is refused, or undefined when Google would accept it. */
export function jwtGrantProblem(form: URLSearchParams, tokenUri: string, publicKey: string, nowS: number): string | undefined {
  if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return 'grant_type';
  const [header, claims, signature] = (form.get('assertion') ?? '').split('.');
  if (!header || !claims || !signature) return 'assertion';
  const ok = createVerify('RSA-SHA256').update(`${header}.${claims}`).verify(publicKey, Buffer.from(signature, 'base64url'));
  if (!ok) return 'signature';
  const h = JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>;
  const c = JSON.parse(Buffer.from(claims, 'base64url').toString()) as Record<string, number | string>;
  if (h.alg !== 'RS256' || h.kid !== 'key-1') return 'header';
  if (c.iss !== SERVICE_ACCOUNT_EMAIL || c.aud !== tokenUri || c.scope !== 'https://www.googleapis.com/auth/cloud-platform') return 'claims';
  if (Math.abs(Number(c.iat) - nowS) > 60 || Number(c.exp) - Number(c.iat) !== 3600) return 'lifetime';
  return undefined;
}

/** The Google token endpoint's part of the mock: `POST /token`. */
export function googleTokenIssuer(tokenUri: string, publicKey: string, lifetimeS: number): TokenIssuer {
  return issuer('ya29.google-', lifetimeS, (form) => jwtGrantProblem(form, tokenUri, publicKey, Math.floor(Date.now() / 1000)));
}
