import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const LOCAL_HOST = '127.0.0.1';

/** The emulators accept any signature; the SDK still needs credentials to sign with. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Reads a request body whole; past `maxBytes` it stops and answers 'too-large'. */
export const readBody = async (request: IncomingMessage, maxBytes = Number.POSITIVE_INFINITY) => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return 'too-large' as const;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
};

/** Listens on the port (0 picks a free one) and resolves with the actual port. */
export const listen = (server: Server, port: number, host = LOCAL_HOST): Promise<number> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });

export const closeServer = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });

export interface Emulator {
  name: string;
  url: string;
  /** Resolves when the emulator answers a real request. */
  healthy: () => Promise<boolean>;
  stop: () => Promise<void>;
}
