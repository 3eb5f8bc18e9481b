// A stand-in OpenTelemetry collector for the load run: accepts OTLP/HTTP trace exports
// (`POST /v1/traces`), reads each body and answers 200 `{}`, counting what it received
// (`GET /__stats`: exports and bytes). Run on the rig's CPU, so its cost is not the target's.
import http from 'node:http';

const port = Number(process.argv.find((a) => a.startsWith('--port='))?.slice(7) ?? 9110);
let exports = 0;
let bytes = 0;
http
  .createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/__stats') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ exports, bytes }));
      return;
    }
    req.on('data', (chunk) => (bytes += chunk.length));
    req.on('end', () => {
      exports += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  })
  .listen(port, '127.0.0.1');
