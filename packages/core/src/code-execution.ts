import type { LlmMediaSource, LlmPartBase } from './content.js';
import type { LlmOrigin, ProtocolId } from './protocol.js';
import { reportLoss, type CodecContext } from './warnings.js';

/**
 * Code the model ran in a provider's sandbox (hosted code execution): Gemini `executableCode`,
 * Claude `server_tool_use` of `code_execution` / `bash_code_execution`, the code of a Responses
 * `code_interpreter_call`. Its result is an {@link LlmCodeExecutionResultPart} after it in the
 * same message.
 */
export interface LlmCodeExecutionPart extends LlmPartBase {
  type: 'code-execution';
  /** Id pairing the code with its result (`srvtoolu_…`, `ci_…`, a Gemini part's `id`); Gemini often sends none. */
  id?: string;
  /** Lower-case language name: `python` (every protocol), `bash` (Claude). */
  language: string;
  code: string;
  /** Whose sandbox ran it: only that protocol takes the run back in a request's history. */
  origin?: LlmOrigin;
}

/** How a run ended: `timeout` when the sandbox stopped it (Gemini `OUTCOME_DEADLINE_EXCEEDED`, Claude `execution_time_exceeded`). */
export type LlmCodeOutcome = 'ok' | 'failed' | 'timeout';

/**
 * What a run of an {@link LlmCodeExecutionPart} gave: Gemini `codeExecutionResult`, Claude
 * `code_execution_tool_result` / `bash_code_execution_tool_result`, the `outputs` and `status` of a
 * Responses `code_interpreter_call`. Without `callId` it answers the code part before it.
 */
export interface LlmCodeExecutionResultPart extends LlmPartBase {
  type: 'code-execution-result';
  /** Id of the code part this answers, when the wire has one. */
  callId?: string;
  outcome: LlmCodeOutcome;
  /**
   * What the run printed: Claude `stdout`; Gemini `output` and Responses `logs`, which hold error
   * text too (those protocols have one stream).
   */
  output: string;
  /** Standard error, where the wire keeps it apart (Claude `stderr`). */
  stderr?: string;
  /** Exit status (Claude `return_code`). */
  returnCode?: number;
  /** Why the sandbox could not run the code at all (Claude `error_code`: `unavailable`, `too_many_requests`, ...). */
  error?: string;
  /** Files the run wrote (Claude `code_execution_output` file ids, Responses `image` output URLs). */
  files?: LlmMediaSource[];
  /** Whose sandbox ran it. */
  origin?: LlmOrigin;
}

/** Either part of a code run. */
export type LlmCodeExecutionPartKind = LlmCodeExecutionPart | LlmCodeExecutionResultPart;

/** True for the code of a run and for its result. */
export function isCodeExecutionPart(part: { type: string }): part is LlmCodeExecutionPartKind {
  return part.type === 'code-execution' || part.type === 'code-execution-result';
}

/**
 * A result as one text, for targets with a single output stream (Gemini `output`, Responses
 * `logs`): the output, then standard error, then the sandbox's error code, each on its own line.
 */
export function codeExecutionOutput(part: LlmCodeExecutionResultPart): string {
  let text = part.output;
  for (const extra of [part.stderr, part.error]) {
    if (extra === undefined || extra === '') continue;
    text = text === '' ? extra : `${text}\n${extra}`;
  }
  return text;
}

const OUTCOME_LABELS: Readonly<Record<LlmCodeOutcome, string>> = { ok: 'Output', failed: 'Failed', timeout: 'Timed out' };

/** `body` as a fenced block (no blank line added after a body that ends its last line). */
function fenced(info: string, body: string): string {
  return `\`\`\`${info}\n${body}${body === '' || body.endsWith('\n') ? '' : '\n'}\`\`\``;
}

/** A readable rendering of either part (the code fenced, or the result's label and fenced output), for targets that carry it as text. */
export function codeExecutionText(part: LlmCodeExecutionPartKind): string {
  if (part.type === 'code-execution') return fenced(part.language, part.code);
  return `${OUTCOME_LABELS[part.outcome]}:\n${fenced('', codeExecutionOutput(part))}`;
}

function partName(part: LlmCodeExecutionPartKind): string {
  return part.type === 'code-execution' ? 'code execution' : 'code execution result';
}

/**
 * A run as the text a target that cannot take it is sent ({@link codeExecutionText}), reported
 * (`lossy-conversion` at `path`) with why the target could not take it.
 */
export function codeExecutionAsText(
  part: LlmCodeExecutionPartKind,
  path: string,
  target: ProtocolId,
  context: CodecContext | undefined,
  reason: string,
): string {
  reportLoss(context, { code: 'lossy-conversion', path, message: `a ${partName(part)} was carried as text (${reason})`, protocol: target });
  return codeExecutionText(part);
}

/** Whether `result` answers `code`: it names that code's id, or names none (it follows its code). */
export function answersCode(result: Pick<LlmCodeExecutionResultPart, 'callId'>, code: { id?: string }): boolean {
  return result.callId === undefined || result.callId === code.id;
}

/** Reports a run a target cannot carry at all (`dropped-part` at `path`). Returns `undefined`, the part's encoding. */
export function reportCodeExecutionDropped(
  part: LlmCodeExecutionPartKind,
  path: string,
  target: ProtocolId,
  context: CodecContext | undefined,
  reason: string,
): undefined {
  reportLoss(context, { code: 'dropped-part', path, message: `a ${partName(part)} has no ${target} form (${reason})`, protocol: target });
}

/**
 * Reports what a target loses of a result: its exit status where it has none (beyond what the
 * outcome says: a 0 of a successful run says nothing more), and each file `takesFile` refuses.
 * Returns the files the target takes.
 */
export function reportCodeResultFields(
  part: LlmCodeExecutionResultPart,
  path: string,
  target: ProtocolId,
  context: CodecContext | undefined,
  carries: { returnCode: boolean; takesFile?: (file: LlmMediaSource) => boolean },
): LlmMediaSource[] {
  if (!carries.returnCode && part.returnCode !== undefined && !(part.returnCode === 0 && part.outcome === 'ok')) {
    reportLoss(context, {
      code: 'dropped-field',
      path: `${path}.returnCode`,
      message: `${target} code execution results carry no exit status`,
      protocol: target,
    });
  }
  const taken: LlmMediaSource[] = [];
  const files = part.files ?? [];
  for (let index = 0; index < files.length; index++) {
    const file = files[index]!;
    if (carries.takesFile?.(file)) taken.push(file);
    else
      reportLoss(context, {
        code: 'dropped-field',
        path: `${path}.files[${index}]`,
        message: `a file written by code execution has no ${target} form here`,
        protocol: target,
      });
  }
  return taken;
}

/**
 * Pairs an answer's results with their code for targets that pair them by id and name a result
 * by its code's tool (Claude): a code part without an id (Gemini pairs by order) gets
 * `<prefix><n>`, and a result without one answers the last code part. One per answer, so that its
 * stream and JSON forms get the same ids.
 */
export class CodeExecutionPairs {
  private last: { id: string; language: string } | undefined;
  private count = 0;

  constructor(private readonly prefix: string) {}

  /** The id of a code part (its own, or a new one). */
  callId(part: LlmCodeExecutionPart): string {
    this.last = { id: part.id ?? `${this.prefix}${this.count++}`, language: part.language };
    return this.last.id;
  }

  /** The id of the code part a result answers. */
  resultId(part: LlmCodeExecutionResultPart): string {
    return part.callId ?? this.last?.id ?? `${this.prefix}${this.count++}`;
  }

  /** The language of the code a result answers, when that code came before it. */
  resultLanguage(part: LlmCodeExecutionResultPart): string | undefined {
    return this.last && answersCode(part, this.last) ? this.last.language : undefined;
  }
}
