import type { RouterReply } from '@llm/router';
import { KeyInputError, parseKeyChanges, parseNewKey } from '../keys/key-input.js';
import { KeyOperationError, type KeyRegistry } from '../keys/key-registry.js';
import { keyView } from '../keys/virtual-key.js';
import { type AdminCall, type AdminContext, type AdminRoute, adminError, adminJson } from './admin-route.js';

/** Runs a key operation, answering its refusals: 400 naming the bad field, 404, 409. */
async function keyCall(context: AdminContext, operation: (registry: KeyRegistry) => Promise<RouterReply>): Promise<RouterReply> {
  const registry = context.keys;
  if (!registry) return adminError(404, 'not_found_error', 'virtual keys are not available on this gateway');
  try {
    return await operation(registry);
  } catch (error) {
    if (error instanceof KeyInputError) return adminError(400, 'invalid_request_error', error.message, error.param);
    if (error instanceof KeyOperationError) return adminError(error.status, error.status === 404 ? 'not_found_error' : 'conflict_error', error.message);
    throw error;
  }
}

const route = (method: AdminRoute['method'], pattern: string, handle: (call: AdminCall, registry: KeyRegistry) => Promise<RouterReply>): AdminRoute => ({
  method,
  pattern,
  handle: (call, context) => keyCall(context, (registry) => handle(call, registry)),
});

/**
 * The virtual keys' admin API: create (the secret in this answer only), list, show, change and
 * revoke. No answer ever carries a secret's hash. See the README, "Keys, limits and budgets".
 */
export const KEY_ROUTES: readonly AdminRoute[] = [
  route('POST', '/admin/keys', async (call, registry) => {
    const { key, secret } = await registry.create(parseNewKey(call.body));
    return adminJson(201, { ...keyView(key, Date.now()), secret });
  }),
  route('GET', '/admin/keys', async (_call, registry) => {
    const now = Date.now();
    return adminJson(200, { data: (await registry.list()).map((key) => keyView(key, now)) });
  }),
  route('GET', '/admin/keys/:name', async (call, registry) => adminJson(200, keyView(await registry.get(call.params.name!), Date.now()))),
  route('PATCH', '/admin/keys/:name', async (call, registry) => {
    const changes = parseKeyChanges(call.body);
    return adminJson(200, keyView(await registry.update(call.params.name!, changes), Date.now()));
  }),
  route('DELETE', '/admin/keys/:name', async (call, registry) => adminJson(200, keyView(await registry.revoke(call.params.name!), Date.now()))),
];
