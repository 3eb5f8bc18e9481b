import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { BedrockRuntimeClient, type ContentBlock, ConverseCommand, ConverseStreamCommand, type Message } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { ClientProtocol } from '../../src/served-protocols.js';
import OpenAI from 'openai';

/** What a client turn produced, in a protocol-neutral shape. */
export interface ClientTurn {
  text: string;
  calls: { id: string; name: string; args: Record<string, unknown> }[];
  /** With `thinking`: the assistant turn as the SDK returned it, replayed verbatim (reasoning state included). */
  raw?: unknown;
  /** With `thinking`: whether the answer showed reasoning (a thinking block, reasoning item or thought part). */
  reasoned?: boolean;
}

/** One official-SDK client of the gateway, able to run a tool loop in its own protocol. */
export interface SdkClient {
  /** Sends the conversation so far (a user text, then optionally one tool round) and returns the answer. */
  ask(
    model: string,
    prompt: string,
    options: { stream: boolean; tools: boolean; thinking?: boolean; toolResult?: { turn: ClientTurn; output: string } },
  ): Promise<ClientTurn>;
}

const PARAMS = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const;

/** The official SDK of `protocol`, pointed at the gateway. */
export function sdkClient(protocol: ClientProtocol, gatewayUrl: string, key: string): SdkClient {
  switch (protocol) {
    case 'openai-chat': {
      const client = new OpenAI({ apiKey: key, baseURL: `${gatewayUrl}/v1`, maxRetries: 0 });
      return {
        async ask(model, prompt, { stream, tools, thinking, toolResult }) {
          const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: prompt }];
          if (toolResult?.turn.raw) messages.push(toolResult.turn.raw as OpenAI.Chat.ChatCompletionAssistantMessageParam);
          if (toolResult) {
            if (!toolResult.turn.raw)
              messages.push({
                role: 'assistant',
                content: null,
                tool_calls: toolResult.turn.calls.map((c) => ({
                  id: c.id,
                  type: 'function' as const,
                  function: { name: c.name, arguments: JSON.stringify(c.args) },
                })),
              });
            for (const call of toolResult.turn.calls) messages.push({ role: 'tool', tool_call_id: call.id, content: toolResult.output });
          }
          const body = {
            model,
            messages,
            ...(thinking ? { reasoning_effort: 'low' as const } : {}),
            ...(tools ? { tools: [{ type: 'function' as const, function: { name: 'get_weather', description: 'weather', parameters: PARAMS } }] } : {}),
          };
          const completion = stream ? await client.chat.completions.stream(body).finalChatCompletion() : await client.chat.completions.create(body);
          const message = completion.choices[0]!.message;
          return {
            ...(thinking ? { raw: { role: 'assistant', content: message.content, tool_calls: message.tool_calls }, reasoned: false } : {}),
            text: message.content ?? '',
            calls: (message.tool_calls ?? []).map((c) =>
              c.type === 'function'
                ? { id: c.id, name: c.function.name, args: JSON.parse(c.function.arguments) as Record<string, unknown> }
                : { id: c.id, name: '?', args: {} },
            ),
          };
        },
      };
    }
    case 'openai-responses': {
      const client = new OpenAI({ apiKey: key, baseURL: `${gatewayUrl}/v1`, maxRetries: 0 });
      return {
        async ask(model, prompt, { stream, tools, thinking, toolResult }) {
          const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: prompt }];
          if (toolResult?.turn.raw) input.push(...(toolResult.turn.raw as OpenAI.Responses.ResponseInputItem[]));
          if (toolResult) {
            if (!toolResult.turn.raw)
              for (const call of toolResult.turn.calls)
                input.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: JSON.stringify(call.args) });
            for (const call of toolResult.turn.calls) input.push({ type: 'function_call_output', call_id: call.id, output: toolResult.output });
          }
          const reasoning = thinking ? { reasoning: { effort: 'low' as const }, include: ['reasoning.encrypted_content' as const] } : {};
          const body = {
            model,
            input,
            store: false,
            ...reasoning,
            ...(tools ? { tools: [{ type: 'function' as const, name: 'get_weather', description: 'weather', parameters: PARAMS, strict: false }] } : {}),
          };
          const response = stream ? await client.responses.stream(body).finalResponse() : await client.responses.create(body);
          return {
            ...(thinking ? { raw: response.output, reasoned: response.output.some((item) => item.type === 'reasoning') } : {}),
            text: response.output_text,
            calls: response.output.flatMap((item) =>
              item.type === 'function_call' ? [{ id: item.call_id, name: item.name, args: JSON.parse(item.arguments) as Record<string, unknown> }] : [],
            ),
          };
        },
      };
    }
    case 'claude': {
      const client = new Anthropic({ apiKey: key, baseURL: gatewayUrl, maxRetries: 0 });
      return {
        async ask(model, prompt, { stream, tools, thinking, toolResult }) {
          const messages: Anthropic.MessageParam[] = [{ role: 'user', content: prompt }];
          if (toolResult) {
            messages.push({
              role: 'assistant',
              content: toolResult.turn.raw
                ? (toolResult.turn.raw as Anthropic.ContentBlockParam[])
                : toolResult.turn.calls.map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: c.args })),
            });
            messages.push({
              role: 'user',
              content: toolResult.turn.calls.map((c) => ({ type: 'tool_result' as const, tool_use_id: c.id, content: toolResult.output })),
            });
          }
          const body = {
            model,
            max_tokens: thinking ? 2048 : 200,
            messages,
            ...(thinking ? { thinking: { type: 'enabled' as const, budget_tokens: 1024 } } : {}),
            ...(tools ? { tools: [{ name: 'get_weather', description: 'weather', input_schema: PARAMS as unknown as Anthropic.Tool.InputSchema }] } : {}),
          };
          const message = stream ? await client.messages.stream(body).finalMessage() : await client.messages.create(body);
          return {
            ...(thinking ? { raw: message.content, reasoned: message.content.some((b) => b.type === 'thinking' || b.type === 'redacted_thinking') } : {}),
            text: message.content.map((b) => (b.type === 'text' ? b.text : '')).join(''),
            calls: message.content.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, args: b.input as Record<string, unknown> }] : [])),
          };
        },
      };
    }
    case 'gemini': {
      const client = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gatewayUrl } });
      return {
        async ask(model, prompt, { stream, tools, thinking, toolResult }) {
          const contents: { role: string; parts: Record<string, unknown>[] }[] = [{ role: 'user', parts: [{ text: prompt }] }];
          if (toolResult) {
            contents.push({
              role: 'model',
              parts: toolResult.turn.raw
                ? (toolResult.turn.raw as Record<string, unknown>[])
                : toolResult.turn.calls.map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.args } })),
            });
            contents.push({
              role: 'user',
              parts: toolResult.turn.calls.map((c) => ({ functionResponse: { id: c.id, name: c.name, response: { result: toolResult.output } } })),
            });
          }
          const config = {
            ...(tools ? { tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'weather', parametersJsonSchema: PARAMS }] }] } : {}),
            ...(thinking ? { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } } : {}),
          };
          const turn: ClientTurn = { text: '', calls: [] };
          // The model's parts as received (streamed parts in order), replayed as the model turn.
          const raw: Record<string, unknown>[] = [];
          if (thinking) {
            turn.raw = raw;
            turn.reasoned = false;
          }
          const chunks = stream
            ? await client.models.generateContentStream({ model, contents, config })
            : [await client.models.generateContent({ model, contents, config })];
          for await (const chunk of chunks) {
            for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
              raw.push(part as Record<string, unknown>);
              if (part.thought) turn.reasoned = true;
              if (part.text && !part.thought) turn.text += part.text;
              if (part.functionCall)
                turn.calls.push({
                  id: part.functionCall.id ?? `${part.functionCall.name}-${turn.calls.length}`,
                  name: part.functionCall.name ?? '',
                  args: part.functionCall.args ?? {},
                });
            }
          }
          return turn;
        },
      };
    }
    case 'bedrock-converse':
      return converseClient(gatewayUrl, key);
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}

/**
 * The AWS SDK's Bedrock runtime client on the gateway: its access key id is the gateway key (the
 * secret is never checked), over HTTP/1.1 (the SDK's default handler speaks HTTP/2, which a plain
 * `http://` gateway does not).
 */
function converseClient(gatewayUrl: string, key: string): SdkClient {
  const client = new BedrockRuntimeClient({
    region: 'us-east-1',
    endpoint: gatewayUrl,
    credentials: { accessKeyId: key, secretAccessKey: 'not-checked' },
    requestHandler: new NodeHttpHandler(),
    maxAttempts: 1,
  });
  return {
    async ask(model, prompt, options) {
      try {
        return await converseTurn(client, model, prompt, options);
      } catch (error) {
        // The status where the other SDKs keep it (`error.status`); the AWS SDK's is in `$metadata`.
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (status !== undefined) Object.assign(error as object, { status });
        throw error;
      }
    },
  };
}

async function converseTurn(
  client: BedrockRuntimeClient,
  model: string,
  prompt: string,
  { stream, tools, thinking, toolResult }: Parameters<SdkClient['ask']>[2],
): Promise<ClientTurn> {
  const messages: Message[] = [{ role: 'user', content: [{ text: prompt }] }];
  if (toolResult) {
    // With thinking, the assistant turn goes back verbatim (its reasoning blocks and their signatures).
    const content = thinking
      ? (toolResult.turn.raw as ContentBlock[])
      : toolResult.turn.calls.map((c): ContentBlock => ({ toolUse: { toolUseId: c.id, name: c.name, input: c.args as Record<string, never> } }));
    messages.push({ role: 'assistant', content });
    messages.push({ role: 'user', content: toolResult.turn.calls.map((c) => ({ toolResult: { toolUseId: c.id, content: [{ text: toolResult.output }] } })) });
  }
  const input = {
    modelId: model,
    messages,
    inferenceConfig: { maxTokens: thinking ? 2048 : 200 },
    // Anthropic's thinking switch, as Bedrock's Claude models take it.
    ...(thinking ? { additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } } } : {}),
    ...(tools
      ? {
          toolConfig: {
            tools: [{ toolSpec: { name: 'get_weather', description: 'weather', inputSchema: { json: PARAMS as unknown as Record<string, never> } } }],
          },
        }
      : {}),
  };
  const turn: ClientTurn = { text: '', calls: [] };
  const blocks: ContentBlock[] = [];
  if (!stream) {
    const answer = await client.send(new ConverseCommand(input));
    for (const block of (answer.output?.message?.content ?? []) as ContentBlock[]) {
      blocks.push(block);
      if (block.text) turn.text += block.text;
      if (block.toolUse)
        turn.calls.push({ id: block.toolUse.toolUseId ?? '', name: block.toolUse.name ?? '', args: block.toolUse.input as Record<string, unknown> });
    }
  } else {
    // The stream folded back into the blocks a non-streamed answer would hold.
    const answer = await client.send(new ConverseStreamCommand(input));
    const folded = new Map<
      number,
      { text?: string; reasoning?: string; signature?: string; redacted?: Uint8Array; toolUse?: { toolUseId: string; name: string; input: string } }
    >();
    const at = (index: number | undefined) => {
      const key = index ?? 0;
      if (!folded.has(key)) folded.set(key, {});
      return folded.get(key)!;
    };
    for await (const event of answer.stream ?? []) {
      const start = event.contentBlockStart?.start?.toolUse;
      if (start) at(event.contentBlockStart?.contentBlockIndex).toolUse = { toolUseId: start.toolUseId ?? '', name: start.name ?? '', input: '' };
      const delta = event.contentBlockDelta;
      if (!delta?.delta) continue;
      const block = at(delta.contentBlockIndex);
      if (delta.delta.text) block.text = (block.text ?? '') + delta.delta.text;
      if (delta.delta.toolUse && block.toolUse) block.toolUse.input += delta.delta.toolUse.input ?? '';
      const reasoning = delta.delta.reasoningContent;
      if (reasoning?.text) block.reasoning = (block.reasoning ?? '') + reasoning.text;
      if (reasoning?.signature) block.signature = reasoning.signature;
      if (reasoning?.redactedContent) block.redacted = reasoning.redactedContent;
    }
    for (const index of [...folded.keys()].sort((a, b) => a - b)) {
      const block = folded.get(index)!;
      if (block.toolUse) {
        const args = JSON.parse(block.toolUse.input || '{}') as Record<string, unknown>;
        turn.calls.push({ id: block.toolUse.toolUseId, name: block.toolUse.name, args });
        blocks.push({ toolUse: { toolUseId: block.toolUse.toolUseId, name: block.toolUse.name, input: args as Record<string, never> } });
      } else if (block.redacted) blocks.push({ reasoningContent: { redactedContent: block.redacted } });
      else if (block.reasoning !== undefined || block.signature !== undefined)
        blocks.push({ reasoningContent: { reasoningText: { text: block.reasoning ?? '', signature: block.signature } } });
      else if (block.text !== undefined) {
        turn.text += block.text;
        blocks.push({ text: block.text });
      }
    }
  }
  if (thinking) {
    turn.raw = blocks;
    turn.reasoned = blocks.some((block) => block.reasoningContent !== undefined);
  }
  return turn;
}
