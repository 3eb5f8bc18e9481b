/**
 * Why a code run in an answer has no Chat form. Dropped, not written as text: the answer's own
 * text says what the run found, and a Chat client's content should be what the model wrote.
 */
export const CODE_EXECUTION_LOSS = 'Chat Completions hosts no code execution; the answer text says what the run found';
