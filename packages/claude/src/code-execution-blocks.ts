import {
  CodeExecutionPairs,
  reportCodeResultFields,
  reportLoss,
  type CodecContext,
  type LlmCodeExecutionPart,
  type LlmCodeExecutionResultPart,
  type LlmMediaSource,
} from '@llm/core';
import type { PathLike } from '@llm/core/kit';
import { PROTOCOL, ext, read } from './protocol.js';

type Wire = Record<string, unknown>;

/**
 * The code execution tool's blocks <-> canonical code-execution parts: `server_tool_use` of
 * `code_execution` (Python `code`) or `bash_code_execution` (a bash `command`), and its
 * `code_execution_tool_result` / `bash_code_execution_tool_result`. Shapes the canonical form
 * cannot say (an encrypted stdout, the text editor's file operations) stay provider parts.
 * Fields with no canonical home (`caller`, `cache_control`) ride in the part's bag, with the marks
 * `$bash` (a bash result) and `$content` (unmapped members of a result's `content`).
 * @see https://platform.claude.com/docs/en/agents-and-tools/tool-use/code-execution-tool
 */
const USE_KNOWN = new Set(['type', 'id', 'name', 'input']);
const RESULT_BLOCK_KNOWN = new Set(['type', 'tool_use_id', 'content']);
const RESULT_KNOWN = new Set(['type', 'stdout', 'stderr', 'return_code', 'content']);
const ERROR_KNOWN = new Set(['type', 'error_code']);

/** Each code-running tool: its language, the input field with the code, and its result's wire names. */
interface CodeTool {
  name: string;
  language: string;
  input: string;
  block: string;
  result: string;
  error: string;
  output: string;
}

const PYTHON: CodeTool = {
  name: 'code_execution',
  language: 'python',
  input: 'code',
  block: 'code_execution_tool_result',
  result: 'code_execution_result',
  error: 'code_execution_tool_result_error',
  output: 'code_execution_output',
};
const BASH: CodeTool = {
  name: 'bash_code_execution',
  language: 'bash',
  input: 'command',
  block: 'bash_code_execution_tool_result',
  result: 'bash_code_execution_result',
  error: 'bash_code_execution_tool_result_error',
  output: 'bash_code_execution_output',
};

/** The prefix of ids made up for runs that came without one (Gemini's). */
export const MADE_UP_ID_PREFIX = 'srvtoolu_code_';

/** The pairing of one answer's runs (see {@link CodeExecutionPairs}). */
export function codeExecutionPairs(): CodeExecutionPairs {
  return new CodeExecutionPairs(MADE_UP_ID_PREFIX);
}

function isOnlyString(value: unknown, key: string): value is Wire {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === key && typeof (value as Wire)[key] === 'string';
}

/** A `server_tool_use` that runs code -> the code of a run; `undefined` for another server tool (or an input the canonical form cannot say). */
export function decodeCodeUse(block: Wire, path: PathLike): LlmCodeExecutionPart | undefined {
  const tool = block.name === PYTHON.name ? PYTHON : block.name === BASH.name ? BASH : undefined;
  if (!tool || !isOnlyString(block.input, tool.input)) return undefined;
  const part: LlmCodeExecutionPart = {
    type: 'code-execution',
    id: read.string(block, 'id', path),
    language: tool.language,
    code: block.input[tool.input] as string,
    origin: { protocol: PROTOCOL },
  };
  return ext.keep(part, ext.rest(block, USE_KNOWN));
}

/** Output files (`code_execution_output` blocks of one `file_id`) as file sources; `undefined` when one is not plainly that. */
function decodeFiles(list: unknown, tool: CodeTool): LlmMediaSource[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const files: LlmMediaSource[] = [];
  for (const item of list) {
    const { type, file_id, ...rest } = (item ?? {}) as Wire;
    if (type !== tool.output || typeof file_id !== 'string' || Object.keys(rest).length > 0) return undefined;
    files.push({ kind: 'file', fileId: file_id, provider: PROTOCOL });
  }
  return files;
}

/** A code execution result block -> a run's result; `undefined` for content the canonical form cannot say (an encrypted stdout). */
export function decodeCodeResult(block: Wire, path: PathLike): LlmCodeExecutionResultPart | undefined {
  const tool = block.type === PYTHON.block ? PYTHON : BASH;
  const content = block.content as Wire | undefined;
  if (typeof content !== 'object' || content === null) return undefined;
  const callId = read.string(block, 'tool_use_id', path);
  const bag: Wire = ext.rest(block, RESULT_BLOCK_KNOWN) ?? {};
  if (tool === BASH) bag.$bash = true;
  let part: LlmCodeExecutionResultPart;
  if (content.type === tool.result) {
    const { stdout, stderr, return_code: returnCode } = content;
    const files = decodeFiles(content.content, tool);
    if (typeof stdout !== 'string' || typeof stderr !== 'string' || typeof returnCode !== 'number' || !files) return undefined;
    part = { type: 'code-execution-result', callId, outcome: returnCode === 0 ? 'ok' : 'failed', output: stdout, returnCode, origin: { protocol: PROTOCOL } };
    if (stderr !== '') part.stderr = stderr;
    if (files.length > 0) part.files = files;
    const rest = ext.rest(content, RESULT_KNOWN);
    if (rest) bag.$content = rest;
  } else if (content.type === tool.error && typeof content.error_code === 'string') {
    const error = content.error_code;
    part = {
      type: 'code-execution-result',
      callId,
      outcome: error === 'execution_time_exceeded' ? 'timeout' : 'failed',
      output: '',
      error,
      origin: { protocol: PROTOCOL },
    };
    const rest = ext.rest(content, ERROR_KNOWN);
    if (rest) bag.$content = rest;
  } else return undefined;
  return ext.keep(part, bag);
}

/** The code of a run -> `server_tool_use` (bash as `bash_code_execution`, any other language as Python code, reported). */
export function codeUseBlock(part: LlmCodeExecutionPart, path: PathLike, pairs: CodeExecutionPairs, context: CodecContext | undefined): Wire {
  const tool = part.language === 'bash' ? BASH : PYTHON;
  if (part.language !== 'bash' && part.language !== 'python')
    reportLoss(context, {
      code: 'lossy-conversion',
      path: `${path}.language`,
      message: `Claude runs Python or bash code; ${part.language} code was sent as Python`,
      protocol: PROTOCOL,
    });
  const out: Wire = { type: 'server_tool_use', id: pairs.callId(part), name: tool.name, input: { [tool.input]: part.code } };
  ext.writeRest(out, part);
  return out;
}

/**
 * A run's result -> its result block. A sandbox error (or another protocol's timeout) becomes the
 * error object; a failure with no exit status is written as exit status 1.
 */
export function codeResultBlock(part: LlmCodeExecutionResultPart, path: PathLike, pairs: CodeExecutionPairs, context: CodecContext | undefined): Wire {
  // Named by the code's tool: bash when its code was a bash command (or, answering code outside this answer, when Claude said so).
  const tool = (pairs.resultLanguage(part) ?? (ext.marker(part, 'bash') === true ? 'bash' : 'python')) === 'bash' ? BASH : PYTHON;
  const at = String(path);
  const files = reportCodeResultFields(part, at, PROTOCOL, context, {
    returnCode: true,
    takesFile: (file) => file.kind === 'file' && file.provider === PROTOCOL,
  });
  let content: Wire;
  const error = part.error ?? (part.outcome === 'timeout' && part.returnCode === undefined ? 'execution_time_exceeded' : undefined);
  if (error !== undefined) {
    content = { type: tool.error, error_code: error };
    if (part.output !== '' || part.stderr !== undefined)
      reportLoss(context, { code: 'dropped-field', path: `${at}.output`, message: 'a Claude code execution error carries no output', protocol: PROTOCOL });
  } else {
    content = {
      type: tool.result,
      stdout: part.output,
      stderr: part.stderr ?? '',
      return_code: part.returnCode ?? (part.outcome === 'ok' ? 0 : 1),
      content: files.map((file) => ({ type: tool.output, file_id: (file as { fileId: string }).fileId })),
    };
  }
  const rest = ext.marker(part, 'content') as Wire | undefined;
  if (rest) Object.assign(content, rest);
  const out: Wire = { type: tool.block, tool_use_id: pairs.resultId(part), content };
  ext.writeRest(out, part);
  return out;
}
