// Types of the two undici modules src/undici-parts.ts imports by path (undici types only its entry).
declare module 'undici/lib/dispatcher/agent.js' {
  const Agent: typeof import('undici').Agent;
  export default Agent;
}

declare module 'undici/lib/api/api-request.js' {
  const request: (this: import('undici').Dispatcher, options: import('undici').Dispatcher.RequestOptions) => Promise<import('undici').Dispatcher.ResponseData>;
  export default request;
}
