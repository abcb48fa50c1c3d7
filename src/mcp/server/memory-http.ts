/**
 * The memory server over Streamable HTTP for the web app's `/api/mcp` route: stateless, one
 * server and transport per request (the SDK's recommended shape when no session is kept), JSON
 * responses. The web app's token check and Host/Origin guards run before this.
 */
import type { MemoryServerOptions } from './memory-server.js';

export function memoryEndpoint(options: MemoryServerOptions): { handle(request: Request): Promise<Response> } {
  return {
    async handle(request) {
      // the MCP SDK loads on the first request, not when the web app starts
      const [{ WebStandardStreamableHTTPServerTransport }, { createMemoryServer }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
        import('./memory-server.js'),
      ]);
      const server = createMemoryServer(options);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        return await transport.handleRequest(request);
      } finally {
        void server.close();
      }
    },
  };
}
