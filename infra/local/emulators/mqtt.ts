import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, Socket } from 'node:net';
import { Aedes, type AedesPublishPacket, type Client } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { closeServer, type Emulator, LOCAL_HOST, listen } from './listen';

export interface MqttEmulator extends Emulator {
  wsUrl: string;
  broker: Aedes;
}

/** The local stand-in for IoT Core: an aedes broker over TCP (devices) and WebSocket (browsers). */
export const startMqtt = async ({ port, wsPort }: { port: number; wsPort: number }): Promise<MqttEmulator> => {
  const broker = await Aedes.createBroker();
  const sockets = new Set<Socket>();
  const tcp = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    broker.handle(socket);
  });
  const tcpPort = await new Promise<number>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(port, LOCAL_HOST, () => resolve((tcp.address() as { port: number }).port));
  });
  const http = createHttpServer();
  const wss = new WebSocketServer({ server: http });
  wss.on('connection', (socket) => broker.handle(createWebSocketStream(socket) as never));
  const actualWs = await listen(http, wsPort);
  const url = `mqtt://localhost:${tcpPort}`;
  return {
    name: 'mqtt',
    url,
    wsUrl: `ws://localhost:${actualWs}`,
    broker,
    healthy: async () =>
      !broker.closed &&
      (await new Promise<boolean>((resolve) => {
        const probe = new Socket();
        probe.once('error', () => resolve(false));
        probe.connect(tcpPort, LOCAL_HOST, () => {
          probe.destroy();
          resolve(true);
        });
      })),
    stop: async () => {
      for (const client of wss.clients) client.terminate();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
      await closeServer(http);
    },
  };
};

export type { AedesPublishPacket, Client };
