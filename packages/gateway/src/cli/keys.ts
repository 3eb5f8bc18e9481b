import { parseArgs } from 'node:util';
import { wholeNumberFlag } from './whole-number.js';
import { KeyInputError, type KeyChanges, parseKeyChanges, parseNewKey } from '../keys/key-input.js';
import { keyLocationOf } from '../keys/key-location.js';
import { KeyOperationError, type KeyRegistry } from '../keys/key-registry.js';
import { openKeyRegistry } from '../keys/open-keys.js';
import { type KeyView, keyView, type VirtualKey } from '../keys/virtual-key.js';

/** Where `keys` writes. */
interface KeysIo {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
}

/** A bad command line: exit 2. */
class KeysUsageError extends Error {}

const SETTING_FLAGS = {
  budget: { type: 'string' },
  rpm: { type: 'string' },
  tpm: { type: 'string' },
  models: { type: 'string' },
  expires: { type: 'string' },
  meta: { type: 'string', multiple: true },
  disable: { type: 'boolean' },
  enable: { type: 'boolean' },
} as const;
const COMMON_FLAGS = { config: { type: 'string', short: 'c' }, json: { type: 'boolean' } } as const;

/**
 * `llm-gateway keys create|list|show|update|revoke`: manages virtual keys in the store a config
 * names, directly (no gateway needs to run); with Redis configured each change is announced to
 * the running gateways. Exit codes: 0 done, 1 refused (no such key, name taken), 2 a bad command line.
 */
export async function runKeysCommand(args: string[], io: KeysIo): Promise<number> {
  try {
    const [action, ...rest] = args;
    const { values, positionals } = parseArgs({
      args: rest,
      options: {
        ...COMMON_FLAGS,
        ...(action === 'create' ? { name: { type: 'string' } } : {}),
        ...(action === 'create' || action === 'update' ? SETTING_FLAGS : {}),
      },
      strict: true,
      allowPositionals: true,
    });
    const flags = values as Record<string, string | boolean | string[] | undefined>;
    if (!ACTIONS.includes(action as Action)) throw new KeysUsageError(`expected create, list, show, update or revoke, got "${action ?? ''}"`);
    const wantsName = action === 'show' || action === 'update' || action === 'revoke';
    if (wantsName && positionals.length !== 1) throw new KeysUsageError(`${action} takes one key name`);
    if (!wantsName && positionals.length > 0) throw new KeysUsageError(`${action} takes no name argument${action === 'create' ? ' (use --name)' : ''}`);
    const config = flags.config;
    if (typeof config !== 'string') throw new KeysUsageError('--config <file> is required');
    const input = action === 'create' ? parseNewKey({ name: flags.name, ...settingsFromFlags(flags) }) : undefined;
    const changes = action === 'update' ? parseKeyChanges(settingsFromFlags(flags)) : undefined;
    const { registry, close } = await openKeyRegistry(keyLocationOf(config, io.env), (message) => io.err(`llm-gateway keys: warning: ${message}`));
    try {
      return await runAction(action as Action, { registry, name: positionals[0]!, input, changes, json: flags.json === true, io });
    } finally {
      await close();
    }
  } catch (error) {
    if (error instanceof KeysUsageError || error instanceof KeyInputError || isParseArgsError(error)) {
      io.err(`llm-gateway keys: ${flagMessage(error as Error)}`);
      return 2;
    }
    if (error instanceof KeyOperationError) {
      io.err(`llm-gateway keys: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

const ACTIONS = ['create', 'list', 'show', 'update', 'revoke'] as const;
type Action = (typeof ACTIONS)[number];

interface ActionInput {
  registry: KeyRegistry;
  name: string;
  input: ReturnType<typeof parseNewKey> | undefined;
  changes: KeyChanges | undefined;
  json: boolean;
  io: KeysIo;
}

async function runAction(action: Action, { registry, name, input, changes, json, io }: ActionInput): Promise<number> {
  const now = Date.now();
  const print = (key: VirtualKey, extra: Record<string, string> = {}) =>
    io.out(json ? JSON.stringify({ ...keyView(key, now), ...extra }) : describeKey(keyView(key, now), extra));
  switch (action) {
    case 'create': {
      const { key, secret } = await registry.create(input!);
      print(key, { secret });
      if (!json) io.err('The secret is shown this once: the gateway keeps only its hash.');
      return 0;
    }
    case 'list': {
      const views = (await registry.list()).map((key) => keyView(key, now));
      io.out(json ? JSON.stringify(views) : keyTable(views));
      return 0;
    }
    case 'show':
      print(await registry.get(name));
      return 0;
    case 'update':
      print(await registry.update(name, changes!));
      return 0;
    case 'revoke':
      print(await registry.revoke(name));
      return 0;
    default: {
      const unreachable: never = action;
      return unreachable;
    }
  }
}

/** The flags as the admin API's body, so both validate alike (`none` / `never` / '' clear a setting). */
function settingsFromFlags(flags: Record<string, string | boolean | string[] | undefined>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const text = (name: string) => flags[name] as string | undefined;
  if (text('budget') !== undefined) body.budget = budgetFlag(text('budget')!);
  for (const rate of ['rpm', 'tpm'] as const) {
    const value = text(rate);
    if (value !== undefined) body[rate] = value === 'none' ? null : wholeNumber(value, `--${rate}`);
  }
  if (text('models') !== undefined)
    body.models = text('models')!
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '' && item !== '*');
  if (text('expires') !== undefined) body.expiresAt = expiresFlag(text('expires')!, Date.now());
  if (flags.meta !== undefined) body.metadata = metaFlags(flags.meta as string[]);
  if (flags.disable && flags.enable) throw new KeysUsageError('--disable and --enable contradict each other');
  if (flags.disable) body.disabled = true;
  if (flags.enable) body.disabled = false;
  return body;
}

/** `50`, `50/day`, `12.5/month`, `none`: a budget body (a bare amount is for the key's whole life). */
function budgetFlag(value: string): unknown {
  if (value === 'none') return null;
  const match = /^(\d+(?:\.\d+)?)(?:\/(\w+))?$/.exec(value);
  if (!match) throw new KeysUsageError(`--budget: expected USD[/day|/week|/month|/total] such as 50/month, got "${value}"`);
  return { usd: Number(match[1]), period: match[2] ?? 'total' };
}

function wholeNumber(value: string, flag: string): number {
  const number = wholeNumberFlag(value, Number.MAX_SAFE_INTEGER);
  if (number === undefined) throw new KeysUsageError(`${flag}: expected a whole number (or none), got "${value}"`);
  return number;
}

const DURATION_UNITS_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `30d`, `12h`, `2w`, `90m` from now; an ISO date as it is; `never` clears the expiry. */
export function expiresFlag(value: string, now: number): string | null {
  if (value === 'never') return null;
  const relative = /^(\d+)([mhdw])$/.exec(value);
  if (relative) {
    const at = new Date(now + Number(relative[1]) * DURATION_UNITS_MS[relative[2]!]!);
    // Past what a date can hold (year 275760), toISOString would throw.
    if (Number.isNaN(at.getTime())) throw new KeysUsageError(`--expires: "${value}" is further ahead than a date can be`);
    return at.toISOString();
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) return value;
  throw new KeysUsageError(`--expires: expected a duration (30d, 12h, 2w, 90m), a date (2027-01-01) or never, got "${value}"`);
}

function metaFlags(entries: readonly string[]): Record<string, string> {
  // Own entries as given (an assignment would take `__proto__=...` as the prototype); a repeated name: the last.
  return Object.fromEntries(
    entries.map((entry) => {
      const at = entry.indexOf('=');
      if (at <= 0) throw new KeysUsageError(`--meta: expected name=value, got "${entry}"`);
      return [entry.slice(0, at), entry.slice(at + 1)];
    }),
  );
}

/** A flag's problem in the flag's terms (`--budget` for the body's `budget.usd`). */
function flagMessage(error: Error): string {
  // node's parseArgs adds a hint on positionals after its first sentence: the first says it all.
  if (isParseArgsError(error)) return error.message.split('. ')[0]!;
  if (!(error instanceof KeyInputError) || error.param === undefined) return error.message.split('\n')[0]!;
  const field = error.param.split(/[.[]/)[0]!;
  const flag = FLAG_OF_FIELD[field] ?? field;
  return `${flag}: ${error.message.slice(error.param.length + 2)}`;
}

const FLAG_OF_FIELD: Record<string, string> = {
  name: '--name',
  budget: '--budget',
  rpm: '--rpm',
  tpm: '--tpm',
  models: '--models',
  expiresAt: '--expires',
  metadata: '--meta',
};

function describeKey(view: KeyView, extra: Record<string, string>): string {
  const lines = [
    `name:     ${view.name}`,
    ...(extra.secret ? [`secret:   ${extra.secret}`] : []),
    `prefix:   ${view.prefix}`,
    `status:   ${view.status}`,
    `models:   ${view.models.length > 0 ? view.models.join(', ') : 'any'}`,
    `budget:   ${budgetText(view)}`,
    `rpm:      ${view.rpm ?? 'none'}`,
    `tpm:      ${view.tpm ?? 'none'}`,
    `expires:  ${view.expiresAt ?? 'never'}`,
    `metadata: ${
      Object.entries(view.metadata)
        .map(([name, value]) => `${name}=${value}`)
        .join(', ') || 'none'
    }`,
    `created:  ${view.createdAt}`,
    `updated:  ${view.updatedAt}`,
  ];
  if (view.revokedAt) lines.push(`revoked:  ${view.revokedAt}`);
  return lines.join('\n');
}

function budgetText(view: KeyView): string {
  return view.budget ? `$${view.budget.usd}/${view.budget.period}` : 'none';
}

function keyTable(views: readonly KeyView[]): string {
  if (views.length === 0) return 'no virtual keys';
  const rows = [
    ['NAME', 'PREFIX', 'STATUS', 'MODELS', 'BUDGET', 'RPM', 'TPM', 'EXPIRES'],
    ...views.map((view) => [
      view.name,
      view.prefix,
      view.status,
      view.models.length > 0 ? view.models.join(',') : 'any',
      budgetText(view),
      String(view.rpm ?? '-'),
      String(view.tpm ?? '-'),
      view.expiresAt ?? 'never',
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}
