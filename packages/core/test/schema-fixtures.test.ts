import { listFixtures, readCassette } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { isJsonObject } from '../src/json.js';
import type { ProtocolId } from '../src/protocol.js';
import { findSchemaProblem } from '../src/json-schema/check.js';

type Body = Record<string, unknown>;

function objects(value: unknown): Body[] {
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

/** The protocols with a recorded request corpus (none for Bedrock Converse yet). */
type Recorded = Exclude<ProtocolId, 'bedrock-converse'>;

/** The JSON Schemas a request body of each protocol carries, by where they sit. Gemini's OpenAPI `parameters` are not JSON Schema. */
const SCHEMAS: Record<Recorded, (body: Body) => Array<[string, unknown]>> = {
  'openai-chat': (body) => [
    ...objects(body.tools).map((tool, index): [string, unknown] => [`tools[${index}].function.parameters`, (tool.function as Body | undefined)?.parameters]),
    ['response_format.json_schema.schema', ((body.response_format as Body | undefined)?.json_schema as Body | undefined)?.schema],
  ],
  'openai-responses': (body) => [
    ...objects(body.tools).map((tool, index): [string, unknown] => [`tools[${index}].parameters`, tool.type === 'function' ? tool.parameters : undefined]),
    ['text.format.schema', ((body.text as Body | undefined)?.format as Body | undefined)?.schema],
  ],
  claude: (body) => [
    ...objects(body.tools).map((tool, index): [string, unknown] => [`tools[${index}].input_schema`, tool.input_schema]),
    ['output_config.format.schema', ((body.output_config as Body | undefined)?.format as Body | undefined)?.schema],
  ],
  gemini: (body) => [
    ...objects(body.tools).flatMap((tool, index) =>
      objects(tool.functionDeclarations).map((declaration, at): [string, unknown] => [
        `tools[${index}].functionDeclarations[${at}].parametersJsonSchema`,
        declaration.parametersJsonSchema,
      ]),
    ),
    ['generationConfig.responseJsonSchema', (body.generationConfig as Body | undefined)?.responseJsonSchema],
  ],
};

describe('findSchemaProblem on the recorded request corpus', () => {
  it.each(Object.keys(SCHEMAS) as Recorded[])('passes every %s tool and response schema real clients sent', (protocol) => {
    const problems: string[] = [];
    let checked = 0;
    for (const path of listFixtures(protocol, ['.yaml'])) {
      readCassette(protocol, path).forEach((interaction, index) => {
        if (!isJsonObject(interaction.request.body)) return;
        for (const [at, schema] of SCHEMAS[protocol](interaction.request.body)) {
          if (schema === undefined) continue;
          checked++;
          const problem = findSchemaProblem(schema, at);
          if (problem !== undefined) problems.push(`${path} #${index} ${problem.path}: ${problem.message}`);
        }
      });
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  });
});
