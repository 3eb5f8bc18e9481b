// The HTTP binding: model and stream flag in the URL, the model id percent-encoded.
import { describe, expect, it } from 'vitest';
import { bedrockConverse } from '../src/index.js';

const http = bedrockConverse.http;

describe('Converse over HTTP', () => {
  it('builds the runtime URL with the model id percent-encoded', () => {
    expect(
      http.buildRequest({ baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com', model: 'anthropic.claude-3-5-haiku-20241022-v1:0', stream: false }),
    ).toEqual({
      url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    });
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.meta.llama3-2-1b-instruct-v1:0';
    expect(http.buildRequest({ baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com/', model: arn, stream: true, apiKey: 'ABSK-key' })).toEqual({
      url: `https://bedrock-runtime.us-east-1.amazonaws.com/model/${encodeURIComponent(arn)}/converse-stream`,
      headers: { 'content-type': 'application/json', accept: 'application/vnd.amazon.eventstream', authorization: 'Bearer ABSK-key' },
    });
  });

  it('recognises client calls, decoding the model', () => {
    expect(http.matchRequest('POST', new URL('http://gw/model/amazon.nova-pro-v1%3A0/converse'))).toEqual({
      operation: 'generate',
      model: 'amazon.nova-pro-v1:0',
      stream: false,
    });
    expect(http.matchRequest('POST', new URL('http://gw/model/m/converse-stream/'))).toEqual({ operation: 'generate', model: 'm', stream: true });
    expect(http.matchRequest('GET', new URL('http://gw/model/m/converse'))).toBeUndefined();
    expect(http.matchRequest('POST', new URL('http://gw/model/m/invoke'))).toBeUndefined();
    expect(() => http.matchRequest('POST', new URL('http://gw/model/%ZZ/converse'))).toThrow('model: the model in the URL is not valid percent-encoding');
    expect(http.ownsPath('/model/m/invoke')).toBe(true);
    expect(http.ownsPath('/v1/messages')).toBe(false);
  });

  it('answers the endpoints the router serves itself in Bedrock shapes', () => {
    expect(bedrockConverse.endpoints.generatePath('a:b', true)).toBe('/model/a%3Ab/converse-stream');
    expect(bedrockConverse.endpoints.modelList(['m1'])).toEqual({
      modelSummaries: [{ modelId: 'm1', modelName: 'm1', inferenceTypesSupported: ['ON_DEMAND'] }],
    });
    expect(bedrockConverse.endpoints.countTokensBody(7)).toEqual({ inputTokens: 7 });
  });
});
