import { describe, expect, it } from 'vitest';
import { readMcpToolList } from './mcp-tool-list.js';
import { wireReader } from './wire-reader.js';

describe('readMcpToolList', () => {
  const read = wireReader('openai-responses');
  const known = new Set(['name', 'description', 'input_schema', 'annotations']);

  it('reads name, description, schema and (when known) annotations, exactly', () => {
    const wire = [
      { name: 'a', description: 'A', input_schema: { type: 'object' }, annotations: { readOnlyHint: true } },
      { name: 'b', input_schema: {} },
    ];
    expect(readMcpToolList(wire, 'tools', read, known)).toEqual({
      tools: [
        { name: 'a', description: 'A', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        { name: 'b', inputSchema: {} },
      ],
      exact: true,
    });
    expect(readMcpToolList([{ name: 'a', input_schema: {}, annotations: {} }], 'tools', read, new Set(['name', 'description', 'input_schema']))).toEqual({
      tools: [{ name: 'a', inputSchema: {} }],
      exact: false,
    });
  });

  it('is not exact for a description that is no string or a field it does not know, and names the path of a bad tool', () => {
    expect(readMcpToolList([{ name: 'a', input_schema: {}, description: 3 }], 'tools', read, known).exact).toBe(false);
    expect(readMcpToolList([{ name: 'a', input_schema: {}, title: 'A' }], 'tools', read, known).exact).toBe(false);
    expect(() => readMcpToolList([{ input_schema: {} }], 'output[0].tools', read, known)).toThrow('output[0].tools[0].name');
  });
});
