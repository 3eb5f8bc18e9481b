import { type MockPlan, type MockTurn, check, isObject, jsonResponse, mockSignature, sse, sseResponse, chunksOf } from './script.js';

/**
 * The Gemini side of the mock upstream, written from the protocol digest.
 * @see https://ai.google.dev/api/generate-content
 */

const SKIP_SIGNATURE = 'skip_thought_signature_validator';

/** True for models that require thought signatures on replayed function calls (Gemini 3 style). */
function needsSignatures(model: string): boolean {
  return /gemini-3/.test(model);
}

/** Validates a generateContent request like the real API and reads the turn the script needs. */
/** Gemini 2.5 thinking budgets as the API bounds them (positive ones in a range per model; Pro cannot turn thinking off). */
function checkThinkingBudget(config: unknown, model: string): void {
  const thinking = isObject(config) ? config.thinkingConfig : undefined;
  const budget = isObject(thinking) ? thinking.thinkingBudget : undefined;
  if (typeof budget !== 'number' || budget === -1) return;
  const [min, max] = /gemini-2\.5-pro/.test(model)
    ? [128, 32768]
    : /gemini-2\.5-flash-lite/.test(model)
      ? [512, 24576]
      : /gemini-2\.5-flash/.test(model)
        ? [1, 24576]
        : [0, Infinity];
  if (budget === 0) check(min !== 128, 'Budget 0 is invalid. This model only works in thinking mode.');
  else check(budget >= min && budget <= max, `The thinking budget (${budget}) is invalid.`);
}

export function readGeminiTurn(body: unknown, model: string, stream: boolean): MockTurn {
  check(isObject(body), 'Invalid JSON payload received.');
  checkThinkingBudget(body.generationConfig, model);
  const contents = body.contents;
  check(Array.isArray(contents) && contents.length > 0, '* GenerateContentRequest.contents: contents is not specified');
  let pendingCalls = 0;
  contents.forEach((content, i) => {
    check(isObject(content), `contents[${i}]: expected an object`);
    const role = content.role ?? 'user';
    check(role === 'user' || role === 'model', `contents[${i}].role: Please use a valid role: user, model.`);
    const parts = content.parts;
    check(Array.isArray(parts) && parts.length > 0, `* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.`);
    const responses = parts.filter((part) => isObject(part) && isObject(part.functionResponse)).length;
    if (pendingCalls > 0) {
      check(
        role === 'user' && responses === pendingCalls,
        `* GenerateContentRequest.contents[${i}]: Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.`,
      );
    } else {
      check(
        responses === 0,
        `* GenerateContentRequest.contents[${i}]: Please ensure that function response turn comes immediately after a function call turn.`,
      );
    }
    pendingCalls = 0;
    if (role === 'model') {
      let first = true;
      parts.forEach((part, j) => {
        if (!isObject(part) || !isObject(part.functionCall)) return;
        pendingCalls += 1;
        if (first && needsSignatures(model)) {
          const signature = part.thoughtSignature;
          check(
            signature === SKIP_SIGNATURE || signature === mockSignature('gemini', String(part.functionCall.name)),
            `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${String(part.functionCall.name)}\` , position ${j + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
          );
        }
        first = false;
      });
    }
  });
  const last = contents[contents.length - 1] as Record<string, unknown>;
  check((last.role ?? 'user') === 'user', 'contents: the last content must come from the user (no prefill in the mock)');
  const parts = (last.parts as unknown[]).filter(isObject);
  const tools = Array.isArray(body.tools)
    ? body.tools
        .filter(isObject)
        .flatMap((tool) => (Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations.filter(isObject).map((f) => String(f.name)) : []))
    : [];
  return {
    model,
    stream,
    lastUserText: parts
      .filter((p) => typeof p.text === 'string')
      .map((p) => String(p.text))
      .join('\n'),
    toolResults: parts.filter((p) => isObject(p.functionResponse)).map((p) => JSON.stringify((p.functionResponse as Record<string, unknown>).response ?? {})),
    toolNames: tools,
  };
}

const STATUSES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'INVALID_ARGUMENT',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** An error body in Gemini's shape. */
export function geminiErrorBody(status: number, message: string): Record<string, unknown> {
  return { error: { code: status, message, status: STATUSES[status] ?? 'UNKNOWN' } };
}

/** An error in Gemini's shape. */
export function geminiError(status: number, message: string, retryAfter?: number): Response {
  return jsonResponse(geminiErrorBody(status, message), status, retryAfter ? { 'retry-after': String(retryAfter) } : {});
}

/** Renders a scripted answer as a GenerateContentResponse, an SSE stream or a JSON array stream. */
export function renderGemini(plan: Exclude<MockPlan, { kind: 'error' }>, turn: MockTurn, sseMode: boolean): Response {
  const parts: Record<string, unknown>[] = [];
  if (plan.thinking) parts.push({ text: plan.thinking.text, thought: true });
  if (plan.text !== undefined) parts.push({ text: plan.text });
  plan.calls.forEach((call, i) => {
    const part: Record<string, unknown> = { functionCall: { name: call.name, args: call.args } };
    if (i === 0 && needsSignatures(turn.model)) part.thoughtSignature = mockSignature('gemini', call.name);
    parts.push(part);
  });
  // Gemini 3 signs text answers too: the signature rides on the last part.
  const lastPart = parts[parts.length - 1];
  if (plan.calls.length === 0 && lastPart && needsSignatures(turn.model)) lastPart.thoughtSignature = mockSignature('gemini', 'text');
  const usageMetadata = {
    promptTokenCount: plan.usage.input,
    candidatesTokenCount: plan.usage.output - plan.usage.reasoning,
    totalTokenCount: plan.usage.input + plan.usage.output,
    ...(plan.usage.reasoning ? { thoughtsTokenCount: plan.usage.reasoning } : {}),
  };
  const meta = { modelVersion: turn.model, responseId: 'mock-response-1' };
  const full = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata, ...meta };
  if (!turn.stream) return jsonResponse(full);
  const chunks: unknown[] = [];
  parts.forEach((part, i) => {
    const isLast = i === parts.length - 1;
    const pieces = typeof part.text === 'string' && !part.functionCall ? chunksOf(part.text) : [undefined];
    pieces.forEach((piece, k) => {
      const chunkPart = piece === undefined ? part : { ...part, text: piece };
      const final = isLast && k === pieces.length - 1;
      chunks.push({
        candidates: [{ content: { role: 'model', parts: [chunkPart] }, index: 0, ...(final ? { finishReason: 'STOP' } : {}) }],
        usageMetadata: final ? usageMetadata : { promptTokenCount: plan.usage.input, totalTokenCount: plan.usage.input },
        ...meta,
      });
    });
  });
  if (sseMode) return sseResponse(chunks.map((chunk) => sse(chunk)));
  return jsonResponse(chunks);
}
