/**
 * Bedrock's error names (the `x-amzn-errortype` header of an error answer, or a stream's
 * `:exception-type`, camel-cased there) as Anthropic error types, so the Claude codec maps them to
 * each client's protocol as it maps Anthropic's own: throttling becomes a rate limit, an
 * unavailable or not-ready model an overload.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html#API_runtime_InvokeModel_Errors
 */
const ANTHROPIC_TYPE: Readonly<Record<string, string>> = {
  ThrottlingException: 'rate_limit_error',
  ServiceQuotaExceededException: 'rate_limit_error',
  ServiceUnavailableException: 'overloaded_error',
  ModelNotReadyException: 'overloaded_error',
  ValidationException: 'invalid_request_error',
  ResourceNotFoundException: 'not_found_error',
  AccessDeniedException: 'permission_error',
  UnrecognizedClientException: 'authentication_error',
  InvalidSignatureException: 'authentication_error',
  ExpiredTokenException: 'authentication_error',
  ModelTimeoutException: 'timeout_error',
  ModelErrorException: 'api_error',
  ModelStreamErrorException: 'api_error',
  InternalServerException: 'api_error',
};

/** The Anthropic type of an answer with no known error name, by its status. */
const TYPE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  503: 'overloaded_error',
};

/** Errors about the gateway's own AWS credentials: their message stays in AWS's logs, not the client's answer. */
const CREDENTIAL_TYPES = new Set(['authentication_error', 'permission_error']);

/** `ThrottlingException:http://internal.amazon.com/...` or `throttlingException` -> `ThrottlingException`. */
function errorName(raw: string | null | undefined): string | undefined {
  const name = raw?.split(':', 1)[0]?.trim();
  return name ? name.charAt(0).toUpperCase() + name.slice(1) : undefined;
}

/** The message of a Bedrock error body (`{"message": ...}`, some services write `Message`). */
function messageOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; Message?: unknown } | null;
    const message = parsed?.message ?? parsed?.Message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/** A Bedrock error (its name, status and body text) as an Anthropic error body. */
export function anthropicErrorBody(name: string | null | undefined, status: number, body: string): { type: 'error'; error: { type: string; message: string } } {
  const known = errorName(name);
  const type = (known && ANTHROPIC_TYPE[known]) || TYPE_BY_STATUS[status] || 'api_error';
  const message = CREDENTIAL_TYPES.has(type)
    ? `Bedrock refused the gateway's AWS credentials (${known ?? `HTTP ${status}`})`
    : (messageOf(body) ?? `Bedrock answered ${known ?? `HTTP ${status}`}`);
  return { type: 'error', error: { type, message } };
}
