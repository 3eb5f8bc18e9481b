/**
 * Wire types of the Gemini API (`generateContent`), named after the fields the API sends. Shapes
 * are open (`[key: string]: unknown`) where the API adds fields often; the codec keeps what it
 * does not model for same-protocol round trips.
 * @see https://ai.google.dev/api/generate-content
 */

/** A part: exactly one data field plus optional metadata. */
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string; displayName?: string };
  fileData?: { mimeType?: string; fileUri: string; displayName?: string };
  functionCall?: { name: string; args?: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; response: Record<string, unknown>; id?: string; parts?: GeminiPart[] };
  executableCode?: { language: string; code: string; id?: string };
  codeExecutionResult?: { outcome: string; output?: string; id?: string };
  videoMetadata?: { startOffset?: string; endOffset?: string; fps?: number };
  [key: string]: unknown;
}

/** One turn. */
export interface GeminiContent {
  role?: 'user' | 'model' | 'function';
  parts: GeminiPart[];
  [key: string]: unknown;
}

/** A Tool object: function declarations and/or built-ins. */
export interface GeminiTool {
  functionDeclarations?: Array<{ name: string; description?: string; parameters?: unknown; parametersJsonSchema?: unknown; [key: string]: unknown }>;
  googleSearch?: Record<string, unknown>;
  codeExecution?: Record<string, unknown>;
  urlContext?: Record<string, unknown>;
  [key: string]: unknown;
}

/** `generationConfig`. */
export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  candidateCount?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  responseMimeType?: string;
  responseSchema?: unknown;
  responseJsonSchema?: unknown;
  responseLogprobs?: boolean;
  logprobs?: number;
  responseModalities?: string[];
  mediaResolution?: string;
  speechConfig?: unknown;
  thinkingConfig?: { includeThoughts?: boolean; thinkingBudget?: number; thinkingLevel?: string };
  [key: string]: unknown;
}

/** The body of `models/{model}:generateContent` / `:streamGenerateContent`. */
export interface GeminiRequest {
  contents: GeminiContent[];
  systemInstruction?: { role?: string; parts: Array<{ text: string }> };
  tools?: GeminiTool[];
  toolConfig?: { functionCallingConfig?: { mode?: 'AUTO' | 'ANY' | 'NONE' | 'VALIDATED'; allowedFunctionNames?: string[] }; [key: string]: unknown };
  safetySettings?: Array<{ category: string; threshold: string }>;
  generationConfig?: GeminiGenerationConfig;
  cachedContent?: string;
  labels?: Record<string, string>;
  store?: boolean;
  serviceTier?: string;
  [key: string]: unknown;
}

/** Token counts per modality. */
export interface GeminiModalityTokenCount {
  modality: string;
  tokenCount: number;
}

/** `usageMetadata`. */
export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
  promptTokensDetails?: GeminiModalityTokenCount[];
  candidatesTokensDetails?: GeminiModalityTokenCount[];
  cacheTokensDetails?: GeminiModalityTokenCount[];
  toolUsePromptTokensDetails?: GeminiModalityTokenCount[];
  [key: string]: unknown;
}

/** One candidate answer. */
export interface GeminiCandidate {
  content?: GeminiContent;
  finishReason?: string;
  finishMessage?: string;
  index?: number;
  safetyRatings?: unknown[];
  citationMetadata?: { citationSources?: Array<{ startIndex?: number; endIndex?: number; uri?: string; license?: string; title?: string }> };
  groundingMetadata?: unknown;
  avgLogprobs?: number;
  logprobsResult?: unknown;
  [key: string]: unknown;
}

/** The response body (and each streamed chunk). */
export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string; safetyRatings?: unknown[] };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
  [key: string]: unknown;
}

/** Error body (google.rpc.Status). */
export interface GeminiErrorBody {
  error: { code: number; message: string; status: string; details?: unknown[] };
}

/** The wire types of this codec (for `Codec<GeminiWireTypes>`). */
export interface GeminiWireTypes {
  request: GeminiRequest;
  response: GeminiResponse;
  streamEvent: GeminiResponse;
  error: GeminiErrorBody;
}
