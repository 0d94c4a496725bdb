import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const LOCAL_HOST = '127.0.0.1';

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
