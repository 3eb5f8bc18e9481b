import fc from 'fast-check';
import { propertyRuns } from '@llm/test-utils/property-runs';
import { describe, expect, it } from 'vitest';
import { WrittenJson, arrayJson, objectJson } from './written-json.js';

const hostile = fc.constantFrom('"', '\\', '\u2028', '\u2029', '\ud800', '\udfff', '\n', '\u0000', '</script>', '\u{1F600}');
const text = fc.array(fc.oneof(hostile, fc.string({ maxLength: 4 })), { maxLength: 6 }).map((parts) => parts.join(''));
const value = fc.oneof(fc.jsonValue(), text, fc.constant(undefined), fc.constant(-0), fc.array(fc.oneof(text, fc.constant(undefined)), { maxLength: 3 }));
const key = fc.oneof(text, fc.constantFrom('2', '10', 'type', '__proto__'));

describe('objectJson', () => {
  it('writes what JSON.stringify writes for a plain object (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 6 }), (object) => {
        expect(objectJson(object)).toBe(JSON.stringify(object));
      }),
      propertyRuns(300),
    );
  });

  it('splices JSON already written in place of the value it was written from (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 6 }), key, fc.oneof(text, fc.jsonValue()), (object, name, inner) => {
        const plain = { ...object, [name]: inner };
        const written = { ...object, [name]: new WrittenJson(JSON.stringify(inner)) };
        expect(objectJson(written)).toBe(JSON.stringify(plain));
      }),
      propertyRuns(300),
    );
    expect(objectJson({})).toBe('{}');
    expect(objectJson({ a: undefined, b: () => 1 })).toBe('{}');
    expect(arrayJson(['1', '{"a":"b"}']).json).toBe('[1,{"a":"b"}]');
    expect(arrayJson([]).json).toBe('[]');
  });
});
