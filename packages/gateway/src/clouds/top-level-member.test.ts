import { describe, expect, it } from 'vitest';
import { withoutTopLevelMember } from './top-level-member.js';

const run = (json: string) => {
  const out = withoutTopLevelMember(new TextEncoder().encode(json), 'stream');
  return out && new TextDecoder().decode(out);
};

describe('withoutTopLevelMember', () => {
  it('removes the top-level member wherever it stands', () => {
    expect(run('{"a":1,"stream":true,"b":2}')).toBe('{"a":1,"b":2}');
    expect(run('{"a":1,"stream":false}')).toBe('{"a":1}');
    expect(run('{"stream":true,"a":1}')).toBe('{"a":1}');
    expect(run('{"stream":true}')).toBe('{}');
    expect(run('{ "a" : 1 , "stream" : true }')).toBe('{ "a" : 1 }');
  });

  it('leaves nested members and look-alikes in strings alone', () => {
    const nested = '{"messages":[{"content":[{"type":"tool_use","input":{"stream":true}}]},{"x":",\\"stream\\":true"}],"tools":{"stream":false},"stream":true}';
    expect(run(nested)).toBe('{"messages":[{"content":[{"type":"tool_use","input":{"stream":true}}]},{"x":",\\"stream\\":true"}],"tools":{"stream":false}}');
    expect(run('{"streams":true,"a":"stream"}')).toBe('{"streams":true,"a":"stream"}');
  });

  it('gives up (undefined) on a non-literal value or a non-object', () => {
    expect(run('{"stream":{"x":1}}')).toBeUndefined();
    expect(run('[1]')).toBeUndefined();
  });
});
