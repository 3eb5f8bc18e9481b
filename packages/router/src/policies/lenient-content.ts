/**
 * Lenient content, before the client's body is decoded: a message `content` written as an
 * object instead of a string or a block array, as some Claude clients and SDK wrappers send it,
 * is rewritten in place: `{text}` (or one text block not in an array) and `{content: string}`
 * become the string, `{content: [blocks]}` the block array. Anything else is left for the
 * decoder, which answers 400 naming the path. Applies to bodies with a `messages` array (Claude
 * Messages, OpenAI Chat); a well-formed body costs one type check per message.
 */
export function normaliseMessageContent(body: Record<string, unknown>): void {
  const messages = body.messages;
  if (!Array.isArray(messages)) return;
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const holder = message as Record<string, unknown>;
    const content = holder.content;
    if (typeof content !== 'object' || content === null || Array.isArray(content)) continue;
    const normalised = contentOf(content as Record<string, unknown>);
    if (normalised !== undefined) holder.content = normalised;
  }
}

function contentOf(wrapper: Record<string, unknown>): string | unknown[] | undefined {
  const keys = Object.keys(wrapper);
  if (typeof wrapper.text === 'string') {
    // `{text}`, or one text block not wrapped in an array.
    return keys.length === 1 || (keys.length === 2 && wrapper.type === 'text') ? wrapper.text : undefined;
  }
  const inner = wrapper.content;
  return keys.length === 1 && (typeof inner === 'string' || Array.isArray(inner)) ? inner : undefined;
}
