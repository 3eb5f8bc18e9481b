import { BUDGET_PERIODS, type BudgetPeriod, type KeySettings } from './virtual-key.js';

/** A key's name: a letter or digit, then up to 63 letters, digits, `.`, `_` or `-` (it labels usage rows and URLs). */
export const KEY_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Most model globs on one key (default 64), each at most 200 characters. */
export const MAX_KEY_MODELS = 64;
export const MAX_MODEL_PATTERN_CHARS = 200;
/** Most metadata entries on one key (default 32); names at most 64 characters, values 512. */
export const MAX_METADATA_ENTRIES = 32;
export const MAX_METADATA_NAME_CHARS = 64;
export const MAX_METADATA_VALUE_CHARS = 512;
/** Largest rpm / tpm a key may set (1e9) and largest budget (USD 1e9): beyond, a typo. */
export const MAX_RATE = 1e9;
export const MAX_BUDGET_USD = 1e9;

/**
 * Changes to a key's settings: a field left out is kept, `null` clears an optional one (no
 * expiry, no budget, no rpm / tpm limit; `models: []` allows every model again).
 */
export interface KeyChanges {
  models?: string[];
  expiresAt?: number | null;
  budget?: { usd: number; period: BudgetPeriod } | null;
  rpm?: number | null;
  tpm?: number | null;
  metadata?: Record<string, string>;
  disabled?: boolean;
}

/** A new key: its name and its settings. */
export interface NewKey extends KeyChanges {
  name: string;
}

/** A bad field: the JSON path of it (`budget.usd`, `metadata.team`; none for the body itself) and what is wrong. */
export class KeyInputError extends Error {
  override name = 'KeyInputError';
  constructor(
    readonly param: string | undefined,
    message: string,
  ) {
    super(param === undefined ? message : `${param}: ${message}`);
  }
}

const CHANGE_FIELDS = ['models', 'expiresAt', 'budget', 'rpm', 'tpm', 'metadata', 'disabled'] as const;

/** A create body (`POST /admin/keys`, `keys create`): throws {@link KeyInputError} naming the first bad field. */
export function parseNewKey(body: unknown): NewKey {
  const object = requireObject(body, 'the body');
  if (!('name' in object)) throw new KeyInputError('name', 'required');
  const { name, ...rest } = object;
  if (typeof name !== 'string' || !KEY_NAME_PATTERN.test(name))
    throw new KeyInputError('name', 'must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit');
  return { name, ...parseKeyChanges(rest) };
}

/** An update body (`PATCH /admin/keys/:name`, `keys update`): throws {@link KeyInputError} naming the first bad field. */
export function parseKeyChanges(body: unknown): KeyChanges {
  const object = requireObject(body, 'the body');
  const changes: KeyChanges = {};
  for (const [field, value] of Object.entries(object)) {
    switch (field as (typeof CHANGE_FIELDS)[number]) {
      case 'models':
        changes.models = parseModels(value);
        break;
      case 'expiresAt':
        changes.expiresAt = value === null ? null : parseTime(value, 'expiresAt');
        break;
      case 'budget':
        changes.budget = value === null ? null : parseBudget(value);
        break;
      case 'rpm':
      case 'tpm':
        changes[field as 'rpm' | 'tpm'] = value === null ? null : parseRate(value, field);
        break;
      case 'metadata':
        changes.metadata = parseMetadata(value);
        break;
      case 'disabled':
        if (typeof value !== 'boolean') throw new KeyInputError('disabled', 'must be true or false');
        changes.disabled = value;
        break;
      default:
        throw new KeyInputError(field, `unknown field (known: name, ${CHANGE_FIELDS.join(', ')})`);
    }
  }
  return changes;
}

/** `changes` applied to `settings`. */
export function applyChanges<T extends KeySettings>(settings: T, changes: KeyChanges): T {
  const next: T = { ...settings };
  if (changes.models !== undefined) next.models = changes.models;
  if (changes.metadata !== undefined) next.metadata = changes.metadata;
  if (changes.disabled !== undefined) next.disabled = changes.disabled;
  for (const field of ['expiresAt', 'budget', 'rpm', 'tpm'] as const) {
    const value = changes[field];
    if (value === null) delete next[field];
    else if (value !== undefined) (next as unknown as Record<string, unknown>)[field] = value;
  }
  return next;
}

function requireObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new KeyInputError(undefined, `${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

function parseModels(value: unknown): string[] {
  if (!Array.isArray(value)) throw new KeyInputError('models', 'must be an array of model names or globs');
  if (value.length > MAX_KEY_MODELS) throw new KeyInputError('models', `at most ${MAX_KEY_MODELS} entries`);
  value.forEach((item, i) => {
    if (typeof item !== 'string' || item.length === 0 || item.length > MAX_MODEL_PATTERN_CHARS)
      throw new KeyInputError(`models[${i}]`, `must be a model name or glob of 1-${MAX_MODEL_PATTERN_CHARS} characters`);
  });
  return [...new Set(value as string[])];
}

/** An ISO 8601 date or date-time (`2027-01-01`, `2027-01-01T12:00:00Z`) in milliseconds. */
function parseTime(value: unknown, param: string): number {
  const ms = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) throw new KeyInputError(param, 'must be an ISO 8601 date or date-time, such as 2027-01-01 or 2027-01-01T00:00:00Z');
  return ms;
}

function parseBudget(value: unknown): { usd: number; period: BudgetPeriod } {
  const object = requireObjectAt(value, 'budget', 'must be an object {usd, period}');
  for (const field of Object.keys(object))
    if (field !== 'usd' && field !== 'period') throw new KeyInputError(`budget.${field}`, 'unknown field (known: usd, period)');
  const { usd, period } = object;
  if (typeof usd !== 'number' || !Number.isFinite(usd) || usd <= 0 || usd > MAX_BUDGET_USD)
    throw new KeyInputError('budget.usd', `must be a number of US dollars above 0 and at most ${MAX_BUDGET_USD}`);
  if (!BUDGET_PERIODS.includes(period as BudgetPeriod)) throw new KeyInputError('budget.period', `must be one of ${BUDGET_PERIODS.join(', ')}`);
  return { usd, period: period as BudgetPeriod };
}

function parseRate(value: unknown, param: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_RATE)
    throw new KeyInputError(param, `must be a whole number from 1 to ${MAX_RATE}`);
  return value;
}

function parseMetadata(value: unknown): Record<string, string> {
  const object = requireObjectAt(value, 'metadata', 'must be an object of strings');
  const entries = Object.entries(object);
  if (entries.length > MAX_METADATA_ENTRIES) throw new KeyInputError('metadata', `at most ${MAX_METADATA_ENTRIES} entries`);
  for (const [name, item] of entries) {
    if (name.length === 0 || name.length > MAX_METADATA_NAME_CHARS)
      throw new KeyInputError(`metadata.${name}`, `names must be 1-${MAX_METADATA_NAME_CHARS} characters`);
    if (typeof item !== 'string' || item.length > MAX_METADATA_VALUE_CHARS)
      throw new KeyInputError(`metadata.${name}`, `must be a string of at most ${MAX_METADATA_VALUE_CHARS} characters`);
  }
  // Own entries as sent: an assignment would take a `__proto__` entry as the object's prototype.
  return Object.fromEntries(entries) as Record<string, string>;
}

function requireObjectAt(value: unknown, param: string, message: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new KeyInputError(param, message);
  return value as Record<string, unknown>;
}
