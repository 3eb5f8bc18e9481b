/** A Bedrock cross-region inference profile's prefix (`us.`, `eu.`, `global.`...). */
const BEDROCK_REGION = /^(?:us|eu|apac|au|ca|jp|us-gov|global)\./;
/** A Bedrock model id's version suffix (`-v1:0`, `-v2`). */
const BEDROCK_VERSION = /-v\d+(?::\d+)?$/;
/** A snapshot date: Anthropic's `-20250929`, OpenAI's `-2024-08-06`. */
const SNAPSHOT_DATE = /-(?:\d{8}|\d{4}-\d{2}-\d{2})$/;

/**
 * The ids a model's price may be listed under, the most specific first: the id itself, then
 * the provider's alias. Bedrock's `us.anthropic.claude-sonnet-4-5-20250929-v1:0` and Vertex
 * AI's `claude-sonnet-4-5@20250929` are Claude API ids in another spelling; a dated snapshot
 * (`gpt-4o-2024-08-06`) is billed as its alias; Gemini's `models/` prefix is dropped.
 */
export function priceIdsOf(model: string): string[] {
  const ids = [model];
  let id = model.replace(/^models\//, '');
  if (id.includes('anthropic.'))
    id = id
      .replace(BEDROCK_REGION, '')
      .replace(/^anthropic\./, '')
      .replace(BEDROCK_VERSION, '');
  id = id.replace(/@(\d{8})$/, '-$1').replace(/@latest$/, '');
  ids.push(id);
  ids.push(id.replace(SNAPSHOT_DATE, ''));
  return [...new Set(ids)];
}
