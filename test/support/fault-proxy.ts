import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What a fault sees of a request on its way to the emulator. */
export interface ProxiedRequest {
  method: string;
  url: string;
  /** DynamoDB's operation (`DynamoDB_20120810.PutItem`), from `x-amz-target`; empty for S3. */
  target: string;
  body: string;
}

/**
 * `fail`: answered with a 500 the SDK takes for a passing server error (it retries, then gives up), the request never
 * reaching the emulator. `hold`: never answered, as when the process that sent it dies while waiting.
 */
export type FaultKind = 'fail' | 'hold';

export interface Fault {
  /** Requests this fault answered so far. */
  readonly hits: number;
  /** Resolves on the first request the fault answers. */
  readonly hit: Promise<void>;
  /** Lets matching requests through again (held ones stay held: their sender is gone). */
  clear: () => void;
}

/**
 * A pass-through HTTP proxy in front of one emulator, for the fault tests: the SDK clients of the code under test
 * are pointed at it (AWS_ENDPOINT_URL_*), so a fault lands at the client boundary, where a real outage would, and
 * the code in between is the real code.
 */
export const startFaultProxy = async (upstream: string) => {
  const faults: {
    match: (r: ProxiedRequest) => boolean;
    kind: FaultKind;
    state: { on: boolean; hits: number; onHit: () => void };
  }[] = [];
  const held = new Set<ServerResponse>();
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const target = new URL(req.url ?? '/', upstream);
    const out = request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    out.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const seen: ProxiedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        target: String(req.headers['x-amz-target'] ?? ''),
        body: body.toString('utf8'),
      };
      const fault = faults.find((f) => f.state.on && f.match(seen));
      if (!fault) return forward(req, res, body);
      fault.state.hits += 1;
      fault.state.onHit();
      if (fault.kind === 'hold') {
        held.add(res);
        return;
      }
      res.writeHead(500, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-errortype': 'InternalServerError' });
      res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'Injected' }));
    });
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Starts answering requests that `match` with the fault `kind` until cleared. */
    inject: (match: (r: ProxiedRequest) => boolean, kind: FaultKind = 'fail'): Fault => {
      const state: { on: boolean; hits: number; onHit: () => void } = { on: true, hits: 0, onHit: () => undefined };
      const hit = new Promise<void>((resolve) => {
        state.onHit = resolve;
      });
      faults.push({ match, kind, state });
      return {
        get hits() {
          return state.hits;
        },
        hit,
        clear: () => {
          state.on = false;
        },
      };
    },
    /**
     * The emulator restarting, as its clients see it: every open connection is cut (a request in flight gets a reset,
     * held ones too), new ones are refused for `downMs`, then it answers again on the same port.
     */
    restart: async (downMs: number) => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      held.clear();
      await closed;
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    stop: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export type FaultProxy = Awaited<ReturnType<typeof startFaultProxy>>;
