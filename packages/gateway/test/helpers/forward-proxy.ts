import { createServer, type IncomingMessage } from 'node:http';
import { type AddressInfo, connect } from 'node:net';

/** A forward proxy listening on loopback, and the tunnels it opened (`CONNECT host:port`). */
export interface ForwardProxy {
  url: string;
  tunnels: string[];
  close(): Promise<void>;
}

/**
 * A real forward proxy on loopback: it answers CONNECT by opening a TCP tunnel to the named host
 * and port, and records each tunnel. undici tunnels http upstreams too (ProxyAgent's `proxyTunnel`
 * default), so CONNECT is all it must speak; other requests get 405. `resolve` maps names only
 * the proxy knows, as behind a corporate proxy.
 */
export async function startForwardProxy(resolve: Record<string, string> = {}): Promise<ForwardProxy> {
  const tunnels: string[] = [];
  const proxy = createServer((_request, response) => response.writeHead(405).end());
  proxy.on('connect', (request: IncomingMessage, client, head) => {
    const target = request.url ?? '';
    tunnels.push(`CONNECT ${target}`);
    const [host = '', port] = target.split(':');
    const socket = connect(Number(port), resolve[host] ?? host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      socket.write(head);
      socket.pipe(client);
      client.pipe(socket);
    });
    socket.on('error', () => client.destroy());
    client.on('error', () => socket.destroy());
  });
  await new Promise<void>((ready) => proxy.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    tunnels,
    close: () => {
      proxy.closeAllConnections();
      return new Promise((closed) => proxy.close(() => closed()));
    },
  };
}
