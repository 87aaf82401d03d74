import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake provider answers the next request: status, body (object or raw text), headers, or never. */
export type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | 'never' | 'stall-body';

/** A local HTTP server speaking World ID's verification API (POST /api/v2/verify/{app_id}) and its failures. */
export async function fakeProvider() {
  const requests: { url: string; body: Record<string, unknown> }[] = [];
  let reply: Reply = { status: 200, body: { success: true } };
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      requests.push({ url: req.url ?? '', body: JSON.parse(text) as Record<string, unknown> });
      if (reply === 'never') return void hanging.add(res);
      if (reply === 'stall-body') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"success":');
        return void hanging.add(res);
      }
      const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    answer(next: Reply) {
      reply = next;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
