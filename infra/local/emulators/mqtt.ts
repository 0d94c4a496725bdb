import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, Socket } from 'node:net';
import { Aedes, type AedesPublishPacket, type AuthenticateError, type Client } from 'aedes';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { createIotDataPlane } from '../iot-data-plane';
import type { MqttAuth, MqttPrincipal } from '../mqtt-auth';
import { closeServer, type Emulator, LOCAL_HOST, listen } from './listen';

export interface MqttEmulator extends Emulator {
  wsUrl: string;
  /** IoT Core's data plane Publish, on the WebSocket port (AWS_ENDPOINT_URL_IOT_DATA_PLANE). */
  dataPlaneUrl: string;
  broker: Aedes;
  /**
   * Turns on authentication and authorization (infra/local/mqtt-auth.ts). The broker starts before the user pool
   * and tables its rules read exist; until this is called it refuses every connection.
   */
  setAuth: (auth: MqttAuth) => void;
  /** What IoT SQL's `principal()` answers for a client's messages: a device's authorizer principal id. */
  principalOf: (client: Client) => string | undefined;
}

// aedes' AuthErrorCode is a const enum, which an isolated-modules build cannot import.
const SERVER_UNAVAILABLE = 3;
const BAD_USERNAME_OR_PASSWORD = 4;

const authError = (message: string, returnCode: number): AuthenticateError =>
  Object.assign(new Error(message), { returnCode }) as AuthenticateError;

/** The local stand-in for IoT Core: an aedes broker over TCP (devices) and WebSocket (browsers). */
export const startMqtt = async ({ port, wsPort }: { port: number; wsPort: number }): Promise<MqttEmulator> => {
  let auth: MqttAuth | undefined;
  const principals = new WeakMap<Client, MqttPrincipal>();
  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      if (!auth) return done(authError('The broker is starting', SERVER_UNAVAILABLE), false);
      auth.authenticate(username, password?.toString(), client.id).then(
        (principal) => {
          if (!principal) return done(authError('Bad user name or password', BAD_USERNAME_OR_PASSWORD), false);
          principals.set(client, principal);
          done(null, true);
        },
        () => done(authError('Authentication failed', SERVER_UNAVAILABLE), false),
      );
    },
    authorizePublish: (client, packet, done) => {
      const principal = client ? principals.get(client) : undefined;
      const refused = () => done(new Error(`Not authorized to publish to ${packet.topic}`));
      if (!principal || !auth) return refused();
      auth.mayPublish(principal, packet.topic).then((allowed) => (allowed ? done(null) : refused()), refused);
    },
    authorizeSubscribe: (client, subscription, done) => {
      const principal = principals.get(client);
      if (!principal || !auth) return done(null, null);
      auth.maySubscribe(principal, subscription.topic).then(
        // A refused subscription is answered with the failure code (0x80); the connection stays.
        (allowed) => done(null, allowed ? subscription : null),
        () => done(null, null),
      );
    },
  });
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
  const dataPlane = createIotDataPlane(broker);
  const http = createHttpServer((request, response) => {
    dataPlane(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  const wss = new WebSocketServer({ server: http });
  wss.on('connection', (socket) => broker.handle(createWebSocketStream(socket) as never));
  const actualWs = await listen(http, wsPort);
  const url = `mqtt://localhost:${tcpPort}`;
  return {
    name: 'mqtt',
    url,
    wsUrl: `ws://localhost:${actualWs}`,
    dataPlaneUrl: `http://localhost:${actualWs}`,
    broker,
    setAuth: (value) => {
      auth = value;
    },
    principalOf: (client) => {
      const principal = principals.get(client);
      return principal?.kind === 'device' ? principal.principalId : undefined;
    },
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
