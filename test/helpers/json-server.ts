/**
 * A local HTTP server on 127.0.0.1 (port 0) for a client's JSON requests, for unit tests of a
 * client against answers they shape themselves (cli/core/chain/views.test.ts, facts.test.ts): each
 * request's body is read whole, parsed and handed to `handle`, with `json` to answer it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JsonExchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** answers `value` as JSON with `status` */
  json: (status: number, value: unknown) => void;
}

export async function startJsonServer(
  handle: (body: unknown, exchange: JsonExchange) => void,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      const json = (status: number, value: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      };
      handle(body, { req, res, json });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
