// The test MCP server's tools over stdio: run as `node --import tsx test/helpers/mcp-stdio-server.ts`.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { testMcpServer } from './mcp-tools.js';

await testMcpServer().connect(new StdioServerTransport());
