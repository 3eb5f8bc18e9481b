import { createHash, randomBytes } from 'node:crypto';
import { matchesGlob } from '@llm/router';

/** A budget's period: UTC calendar day, week (from Monday) or month, or the key's whole life. */
export type BudgetPeriod = 'day' | 'week' | 'month' | 'total';
export const BUDGET_PERIODS: readonly BudgetPeriod[] = ['day', 'week', 'month', 'total'];

/** What an operator sets on a virtual key (the admin API's and the CLI's fields). */
export interface KeySettings {
  /** Globs of the model names a client may send (`claude-*`); empty: any model. */
  models: string[];
  /** Milliseconds since the epoch after which the key is refused; absent: never. */
  expiresAt?: number;
  budget?: { usd: number; period: BudgetPeriod };
  /** Requests per minute. */
  rpm?: number;
  /** Tokens (input + output) per minute. */
  tpm?: number;
  /** The operator's labels (owner, team...), a bounded string map. */
  metadata: Record<string, string>;
  disabled: boolean;
}

/**
 * A virtual key as stored: its settings, the SHA-256 of its secret (never the secret), a short
 * prefix of the secret for lists, and its history. A revoked key keeps its row, so usage history
 * keeps its label and its name is never reused.
 */
export interface VirtualKey extends KeySettings {
  name: string;
  hash: string;
  prefix: string;
  createdAt: number;
  updatedAt: number;
  revokedAt?: number;
}

/** Every virtual key's secret starts so: the gateway asks its key store only for these. */
export const SECRET_PREFIX = 'sk-gw-';
/** Random base62 characters after {@link SECRET_PREFIX}: 40 (about 238 bits). */
export const SECRET_RANDOM_CHARS = 40;
/** Characters of the secret kept as its prefix for lists (`sk-gw-` and 6 more: 36 bits, no help to a guesser). */
export const SHOWN_PREFIX_CHARS = SECRET_PREFIX.length + 6;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A new secret: `sk-gw-` and {@link SECRET_RANDOM_CHARS} base62 characters from the OS's CSPRNG (unbiased: bytes >= 248 are drawn again). */
export function newSecret(): string {
  let out = SECRET_PREFIX;
  while (out.length < SECRET_PREFIX.length + SECRET_RANDOM_CHARS) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && out.length < SECRET_PREFIX.length + SECRET_RANDOM_CHARS) out += BASE62[byte % 62];
    }
  }
  return out;
}

/**
 * The stored form of a secret. A plain SHA-256 is right here, unlike for passwords: the secret is
 * 238 random bits, so no dictionary or brute force reaches it, and a slow hash (scrypt, argon2)
 * would only slow every request; being deterministic, it also makes the lookup an index hit.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Why a key is refused whatever the request, or undefined while it is usable. */
export function keyRefusal(key: VirtualKey, now: number): 'revoked' | 'disabled' | 'expired' | undefined {
  if (key.revokedAt !== undefined) return 'revoked';
  if (key.disabled) return 'disabled';
  if (key.expiresAt !== undefined && now >= key.expiresAt) return 'expired';
  return undefined;
}

/** Whether the key lets a client ask for `model` (the name as the client sent it). */
export function allowsModel(key: KeySettings, model: string): boolean {
  return key.models.length === 0 || key.models.some((pattern) => matchesGlob(pattern, model));
}

/** A key as the admin API and `keys show --json` print it: never the secret nor its hash. */
export interface KeyView {
  name: string;
  prefix: string;
  models: string[];
  expiresAt: string | null;
  budget: { usd: number; period: BudgetPeriod } | null;
  rpm: number | null;
  tpm: number | null;
  metadata: Record<string, string>;
  disabled: boolean;
  status: 'active' | 'revoked' | 'disabled' | 'expired';
  createdAt: string;
  updatedAt: string;
  revokedAt: string | null;
}

export function keyView(key: VirtualKey, now: number): KeyView {
  return {
    name: key.name,
    prefix: key.prefix,
    models: key.models,
    expiresAt: isoOrNull(key.expiresAt),
    budget: key.budget ?? null,
    rpm: key.rpm ?? null,
    tpm: key.tpm ?? null,
    metadata: key.metadata,
    disabled: key.disabled,
    status: keyRefusal(key, now) ?? 'active',
    createdAt: new Date(key.createdAt).toISOString(),
    updatedAt: new Date(key.updatedAt).toISOString(),
    revokedAt: isoOrNull(key.revokedAt),
  };
}

function isoOrNull(ms: number | undefined): string | null {
  return ms === undefined ? null : new Date(ms).toISOString();
}
