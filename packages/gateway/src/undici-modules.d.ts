// Types of the undici modules src/undici-parts.ts imports by path (undici types only its entry).
declare module 'undici/lib/dispatcher/agent.js' {
  const Agent: typeof import('undici').Agent;
  export default Agent;
}

declare module 'undici/lib/api/api-request.js' {
  const request: (this: import('undici').Dispatcher, options: import('undici').Dispatcher.RequestOptions) => Promise<import('undici').Dispatcher.ResponseData>;
  export default request;
}

declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  const EnvHttpProxyAgent: typeof import('undici').EnvHttpProxyAgent;
  export default EnvHttpProxyAgent;
}

declare module 'undici/lib/dispatcher/pool.js' {
  const Pool: typeof import('undici').Pool;
  export default Pool;
}

declare module 'undici/lib/api/api-connect.js' {
  const connect: import('undici').Dispatcher['connect'];
  export default connect;
}
