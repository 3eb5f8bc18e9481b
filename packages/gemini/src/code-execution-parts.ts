import {
  codeExecutionOutput,
  reportCodeResultFields,
  reportLoss,
  type CodecContext,
  type LlmCodeExecutionPart,
  type LlmCodeExecutionResultPart,
  type LlmCodeOutcome,
  type LlmOrigin,
} from '@llm/core';
import type { PathLike } from '@llm/core/kit';
import { PROTOCOL, ext, read } from './protocol.js';
import { camel, field, unknownFields } from './read.js';

type Wire = Record<string, unknown>;

/**
 * The parts of a code run <-> canonical code-execution parts: `executableCode` (the code the model
 * ran) and `codeExecutionResult` (what it gave), in the model's turn. Members with no canonical
 * home stay in the bag (`$code`, `$result`), and so does a part's `thoughtSignature`; marks keep a
 * language other than `PYTHON` (`$language`), an outcome with no canonical meaning (`$outcome`)
 * and a result without `output` (`$noOutput`).
 * @see https://ai.google.dev/api/caching#ExecutableCode
 */
const CODE_KNOWN = new Set(['language', 'code', 'id']);
const RESULT_KNOWN = new Set(['outcome', 'output', 'id']);

const OUTCOMES: Readonly<Record<string, LlmCodeOutcome>> = { OUTCOME_OK: 'ok', OUTCOME_FAILED: 'failed', OUTCOME_DEADLINE_EXCEEDED: 'timeout' };
const WIRE_OUTCOMES: Readonly<Record<LlmCodeOutcome, string>> = { ok: 'OUTCOME_OK', failed: 'OUTCOME_FAILED', timeout: 'OUTCOME_DEADLINE_EXCEEDED' };

/** The bag of a code part: the part's own rest, and its signature (the canonical parts have none). */
function partBag(part: Wire, bag: Wire | undefined): Wire {
  const out: Wire = bag ?? {};
  const signature = field(part, 'thoughtSignature');
  if (signature !== undefined) out.thoughtSignature = signature;
  return out;
}

/** `executableCode` -> the code of a run (`PYTHON` as `python`; another language kept as sent). */
export function decodeExecutableCode(part: Wire, path: string, bag: Wire | undefined, origin: LlmOrigin): LlmCodeExecutionPart {
  const wire = read.object(camel(part, 'executableCode'), 'executableCode', path);
  const codePath = `${path}.executableCode`;
  const language = read.string(wire, 'language', codePath);
  const run: LlmCodeExecutionPart = {
    type: 'code-execution',
    language: language === 'PYTHON' ? 'python' : language.toLowerCase(),
    code: read.string(wire, 'code', codePath),
    origin,
  };
  const id = read.optionalString(wire, 'id', codePath);
  if (id !== undefined) run.id = id;
  const extra = partBag(part, bag);
  if (language !== 'PYTHON') extra.$language = language;
  const rest = unknownFields(wire, CODE_KNOWN);
  if (rest) extra.$code = rest;
  return ext.keep(run, extra);
}

/** `codeExecutionResult` -> a run's result; an outcome with no canonical meaning (`OUTCOME_UNSPECIFIED`) is a failure, kept as sent. */
export function decodeCodeExecutionResult(part: Wire, path: string, bag: Wire | undefined, origin: LlmOrigin): LlmCodeExecutionResultPart {
  const wire = read.object(camel(part, 'codeExecutionResult'), 'codeExecutionResult', path);
  const resultPath = `${path}.codeExecutionResult`;
  const outcome = read.string(wire, 'outcome', resultPath);
  const output = read.optionalString(wire, 'output', resultPath);
  // Own keys only: a wire outcome such as `constructor` is no outcome (it is kept in the bag below).
  const known = Object.hasOwn(OUTCOMES, outcome) ? OUTCOMES[outcome] : undefined;
  const result: LlmCodeExecutionResultPart = { type: 'code-execution-result', outcome: known ?? 'failed', output: output ?? '', origin };
  const id = read.optionalString(wire, 'id', resultPath);
  if (id !== undefined) result.callId = id;
  const extra = partBag(part, bag);
  if (known === undefined) extra.$outcome = outcome;
  if (output === undefined) extra.$noOutput = true;
  const rest = unknownFields(wire, RESULT_KNOWN);
  if (rest) extra.$result = rest;
  return ext.keep(result, extra);
}

/** The code of a run -> `executableCode`. Gemini runs Python only: other code keeps its language name upper-cased (reported). */
export function executableCodePart(part: LlmCodeExecutionPart, path: PathLike, context: CodecContext | undefined): Wire {
  const bag = ext.bag(part);
  let language = bag?.$language;
  if (typeof language !== 'string') {
    language = part.language.toUpperCase();
    if (part.language !== 'python')
      reportLoss(context, {
        code: 'lossy-conversion',
        path: `${path}.language`,
        message: `Gemini code execution runs Python only; ${part.language} code was sent as language ${language}`,
        protocol: PROTOCOL,
      });
  }
  const code: Wire = { language, code: part.code };
  if (part.id !== undefined) code.id = part.id;
  if (bag?.$code) Object.assign(code, bag.$code);
  const out: Wire = { executableCode: code };
  ext.writeRest(out, part);
  return out;
}

/** A run's result -> `codeExecutionResult`, its output, standard error and error code in one `output` (Gemini has one stream). */
export function codeExecutionResultPart(part: LlmCodeExecutionResultPart, path: PathLike, context: CodecContext | undefined): Wire {
  const bag = ext.bag(part);
  reportCodeResultFields(part, String(path), PROTOCOL, context, { returnCode: false });
  const result: Wire = { outcome: typeof bag?.$outcome === 'string' ? bag.$outcome : WIRE_OUTCOMES[part.outcome] };
  const output = codeExecutionOutput(part);
  if (!(bag?.$noOutput && output === '')) result.output = output;
  if (part.callId !== undefined) result.id = part.callId;
  if (bag?.$result) Object.assign(result, bag.$result);
  const out: Wire = { codeExecutionResult: result };
  ext.writeRest(out, part);
  return out;
}
