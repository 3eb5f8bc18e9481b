import type { CodecContext, LlmAssistantMessage, LlmMessage, LlmPart, LlmTextPart, LlmToolResultPart } from '@llm/core';
import {
  contentPartPath,
  isMcpPart,
  codeExecutionAsText,
  joinPath,
  opaqueStateWarning,
  reportLoss,
  reportMcpPartDropped,
  textOf,
  toolArgumentsText,
} from '@llm/core';
import { dataUrl } from '@llm/core/kit';
import { reportForeignCache } from './cache-control.js';
import { PROTOCOL, ext } from './protocol.js';

const P = PROTOCOL;
type Wire = Record<string, unknown>;

function textPart(part: LlmTextPart, path: string, context: CodecContext | undefined): Wire {
  const out: Wire = { type: 'text', text: part.text };
  reportForeignCache(part, path, context);
  ext.writeRest(out, part);
  return out;
}

/** A canonical user-side part as a wire content part, or `undefined` (reported) when chat has none. */
function encodeUserPart(part: LlmPart, path: string, context: CodecContext | undefined): Wire | undefined {
  switch (part.type) {
    case 'text':
      return textPart(part, path, context);
    case 'image': {
      const source = part.source;
      let url: string;
      if (source.kind === 'url') url = source.url;
      else if (source.kind === 'base64') url = dataUrl(source.mediaType, source.data);
      else {
        reportLoss(context, { code: 'dropped-part', path, message: `image source ${source.kind} has no openai-chat form`, protocol: P });
        return undefined;
      }
      const image: Wire = { url };
      if (part.detail !== undefined) image.detail = part.detail;
      const out: Wire = { type: 'image_url', image_url: image };
      reportForeignCache(part, path, context);
      ext.writeRest(out, part);
      return out;
    }
    case 'audio': {
      const source = part.source;
      if (source.kind !== 'base64') {
        reportLoss(context, { code: 'dropped-part', path, message: 'openai-chat audio input must be base64', protocol: P });
        return undefined;
      }
      const format = part.format ?? source.mediaType.replace(/^audio\/(x-)?/, '').replace('mpeg', 'mp3');
      const out: Wire = { type: 'input_audio', input_audio: { data: source.data, format } };
      reportForeignCache(part, path, context);
      ext.writeRest(out, part);
      return out;
    }
    case 'file': {
      const source = part.source;
      const file: Wire = {};
      if (source.kind === 'file') {
        if (source.provider !== undefined && source.provider !== P && source.provider !== 'openai-responses') {
          reportLoss(context, { code: 'dropped-part', path, message: `file id of ${source.provider} is not valid for openai-chat`, protocol: P });
          return undefined;
        }
        file.file_id = source.fileId;
      } else if (source.kind === 'base64') {
        file.file_data = ext.marker(part, 'rawData') ? source.data : dataUrl(source.mediaType, source.data);
      } else if (source.kind === 'text') {
        return { type: 'text', text: source.text };
      } else {
        reportLoss(context, { code: 'dropped-part', path, message: 'openai-chat files cannot be URLs', protocol: P });
        return undefined;
      }
      if (part.filename !== undefined) file.filename = part.filename;
      const out: Wire = { type: 'file', file };
      reportForeignCache(part, path, context);
      ext.writeRest(out, part);
      return out;
    }
    default:
      if (isMcpPart(part)) reportMcpPartDropped(part, path, P, context);
      else reportLoss(context, { code: 'dropped-part', path, message: `a ${part.type} part has no openai-chat form here`, protocol: P });
      return undefined;
  }
}

function encodeAssistant(message: LlmAssistantMessage, path: string, context: CodecContext | undefined): Wire {
  const out: Wire = { role: 'assistant' };
  let text: string | undefined;
  let parts: Wire[] | undefined;
  let refusal: string | undefined;
  let calls: Wire[] | undefined;
  const useArray = !message.stringContent;
  for (let i = 0; i < message.content.length; i++) {
    const part = message.content[i]!;
    switch (part.type) {
      case 'text':
        if (useArray) (parts ??= []).push(textPart(part, contentPartPath(path, i), context));
        else text = (text ?? '') + part.text;
        break;
      case 'code-execution':
      case 'code-execution-result': {
        // Chat hosts no code execution: the model is told what it ran as text.
        const at = contentPartPath(path, i);
        const code = codeExecutionAsText(part, at, P, context, 'Chat Completions hosts no code execution');
        if (useArray) (parts ??= []).push({ type: 'text', text: code });
        else text = (text ?? '') + code;
        break;
      }
      case 'refusal':
        if (ext.marker(part, 'inContent')) {
          const wire: Wire = { type: 'refusal', refusal: part.text };
          ext.writeRest(wire, part);
          (parts ??= []).push(wire);
        } else refusal = (refusal ?? '') + part.text;
        break;
      case 'reasoning': {
        const foreign = part.origin !== undefined && part.origin.protocol !== P;
        if (part.signature !== undefined && foreign) {
          reportLoss(context, {
            ...opaqueStateWarning(contentPartPath(path, i), { foreign: part.origin!, target: { protocol: P } }),
            protocol: P,
          });
        }
        if (part.redacted || (part.text === '' && part.signature !== undefined)) break;
        const field = ext.marker(part, 'field') === 'reasoning' ? 'reasoning' : 'reasoning_content';
        out[field] = typeof out[field] === 'string' ? (out[field] as string) + part.text : part.text;
        break;
      }
      case 'tool-call': {
        if (ext.marker(part, 'legacy')) {
          out.function_call = { name: part.name, arguments: toolArgumentsText(part.arguments) };
          break;
        }
        const call: Wire = part.freeform
          ? { id: part.id, type: 'custom', custom: { name: part.name, input: toolArgumentsText(part.arguments) } }
          : { id: part.id, type: 'function', function: { name: part.name, arguments: toolArgumentsText(part.arguments) } };
        if (ext.marker(part, 'noType')) delete call.type;
        ext.writeRest(call, part);
        (calls ??= []).push(call);
        break;
      }
      default:
        if (isMcpPart(part)) {
          reportMcpPartDropped(part, contentPartPath(path, i), P, context);
          break;
        }
        reportLoss(context, {
          code: 'dropped-part',
          path: contentPartPath(path, i),
          message: `a ${part.type} part has no openai-chat form in assistant messages`,
          protocol: P,
        });
    }
  }
  if (text !== undefined) out.content = text;
  else if (parts !== undefined) out.content = parts;
  else if (message.stringContent) out.content = '';
  if (refusal !== undefined) out.refusal = refusal;
  if (calls !== undefined) out.tool_calls = calls;
  if (message.name !== undefined) out.name = message.name;
  ext.writeRest(out, message);
  return out;
}

function toolResultContent(part: LlmToolResultPart, path: string, context: CodecContext | undefined): string | Wire[] {
  if (typeof part.content === 'string') return part.content;
  const out: Wire[] = [];
  for (let i = 0; i < part.content.length; i++) {
    const item = part.content[i]!;
    if (item.type === 'text') out.push(textPart(item, joinPath(path, i), context));
    else if (item.type === 'json') out.push({ type: 'text', text: JSON.stringify(item.value) });
    else
      reportLoss(context, {
        code: 'dropped-part',
        path: joinPath(path, i),
        message: `openai-chat tool results hold text only; a ${item.type} part was dropped`,
        protocol: P,
      });
  }
  return out;
}

/**
 * One canonical message as one or more wire messages (a tool message with several results
 * becomes one `tool` message per result).
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export function encodeMessage(message: LlmMessage, path: string, out: Wire[], context: CodecContext | undefined): void {
  switch (message.role) {
    case 'system': {
      const wire: Wire = { role: message.developer ? 'developer' : 'system' };
      const content = joinPath(path, 'content');
      if (ext.marker(message, 'array')) wire.content = message.content.map((part, i) => textPart(part, joinPath(content, i), context));
      else {
        for (let i = 0; i < message.content.length; i++) reportForeignCache(message.content[i]!, joinPath(content, i), context);
        wire.content = textOf(message.content);
      }
      if (message.name !== undefined) wire.name = message.name;
      ext.writeRest(wire, message);
      out.push(wire);
      return;
    }
    case 'user': {
      const wire: Wire = { role: 'user' };
      if (message.stringContent && message.content.length === 1 && message.content[0]!.type === 'text') {
        wire.content = (message.content[0] as { text: string }).text;
      } else {
        const parts: Wire[] = [];
        for (let i = 0; i < message.content.length; i++) {
          const part = encodeUserPart(message.content[i]!, contentPartPath(path, i), context);
          if (part) parts.push(part);
        }
        wire.content = parts;
      }
      if (message.name !== undefined) wire.name = message.name;
      ext.writeRest(wire, message);
      out.push(wire);
      return;
    }
    case 'assistant':
      out.push(encodeAssistant(message, path, context));
      return;
    case 'tool': {
      const legacy = ext.marker(message, 'function') === true;
      for (let i = 0; i < message.content.length; i++) {
        const part = message.content[i]!;
        // The part's path is joined only for a loss: one tool message per call of an agent's loop.
        if (part.type !== 'tool-result') {
          reportLoss(context, { code: 'dropped-part', path: contentPartPath(path, i), message: 'a provider part has no openai-chat form', protocol: P });
          continue;
        }
        const content = typeof part.content === 'string' ? part.content : toolResultContent(part, contentPartPath(path, i), context);
        const wire: Wire = legacy
          ? { role: 'function', name: part.toolName ?? part.toolCallId, content }
          : { role: 'tool', tool_call_id: part.toolCallId, content };
        if (part.isError)
          reportLoss(context, { code: 'dropped-field', path: contentPartPath(path, i), message: 'openai-chat tool results have no error flag', protocol: P });
        if (message.content.length === 1) ext.writeRest(wire, message);
        out.push(wire);
      }
      return;
    }
    default: {
      const unreachable: never = message;
      return unreachable;
    }
  }
}
