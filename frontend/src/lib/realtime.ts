import type { IClientOptions } from 'mqtt';
import { LOCAL_IDENTITY_PREFIX } from '../../../shared/iot/realtime';
import { accessToken, amplifyAuth } from './auth';
import type { FromRealtimeWorker, ToRealtimeWorker } from './realtime-protocol';
import { requireCurrentUser, requireRealtimeUrl } from './realtime-rules';
import { signRealtimeUrl } from './realtime-signing';
import { runtimeConfig } from './runtime-config';

/** One open MQTT-over-WebSocket connection of the signed-in user's realtime identity. */
export interface RealtimeConnection {
  /** Subscribes to one topic; the broker refuses topics that are not the identity's own. */
  subscribe: (topic: string, onMessage: (payload: string) => void) => Promise<void>;
  close: () => void;
  /** Called when the connection drops (the broker went away or refused us). */
  onDown: (listener: (reason: string) => void) => void;
}

/**
 * Opens the realtime connection for an identity the API gave (docs/sensor-data.md, "Live view").
 * Locally (`local:{sub}`): the local broker at `realtimeUrl`, user name = the identity, password = the access token.
 * In the cloud: IoT Core at `realtimeUrl`, a SigV4-presigned WSS URL from the identity pool's credentials, client id =
 * the identity id (IoTPolicyForCognito lets an identity connect only as itself).
 * The MQTT client runs in a Web Worker (lib/realtime-worker.ts, decision 107); the credentials are read here.
 */
export const connectRealtime = async (identityId: string): Promise<RealtimeConnection> => {
  const url = requireRealtimeUrl(runtimeConfig().realtimeUrl);
  if (identityId.startsWith(LOCAL_IDENTITY_PREFIX)) {
    const password = requireCurrentUser((await accessToken()) || undefined);
    return openInWorker(url, {
      username: identityId,
      password,
      // The token is checked when connecting; a new one is needed for a new connection, so the page reconnects itself.
      reconnectPeriod: 0,
      connectTimeout: 10_000,
    });
  }
  // Through lib/auth.ts: Amplify configured (a page read with fresh stored tokens has not loaded it yet).
  const { fetchAuthSession } = await amplifyAuth();
  const session = await fetchAuthSession();
  // Credentials of another identity than the one the API watches for are no one to connect as either.
  const credentials = requireCurrentUser(session.identityId === identityId ? session.credentials : undefined);
  const signed = await signRealtimeUrl(url, runtimeConfig().region, credentials);
  // The signature lives 5 minutes: the page reconnects with a new one rather than the client reusing it.
  return openInWorker(signed, { clientId: identityId, reconnectPeriod: 0, connectTimeout: 10_000 });
};

/** One worker, one connection: asks are answered by id; a worker that dies is a connection that closed. */
const openInWorker = async (url: string, options: IClientOptions): Promise<RealtimeConnection> => {
  const worker = new Worker(new URL('./realtime-worker.ts', import.meta.url), { type: 'module', name: 'realtime' });
  const post = (message: ToRealtimeWorker) => worker.postMessage(message);
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  const handlers = new Map<string, (payload: string) => void>();
  const downListeners: ((reason: string) => void)[] = [];
  let ended = false;
  let nextId = 0;
  const ask = (message: (id: number) => ToRealtimeWorker) =>
    new Promise<void>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      post(message(id));
    });
  const down = (reason: string) => {
    if (ended) return;
    ended = true;
    for (const { reject } of pending.values()) reject(new Error(reason));
    pending.clear();
    for (const listener of downListeners) listener(reason);
    worker.terminate();
  };
  worker.onmessage = ({ data }: MessageEvent<FromRealtimeWorker>) => {
    if (data.kind === 'message') handlers.get(data.topic)?.(data.payload);
    else if (data.kind === 'closed') down('The live connection closed');
    else {
      const asked = pending.get(data.id);
      pending.delete(data.id);
      if (data.kind === 'done') asked?.resolve();
      else asked?.reject(new Error(data.message));
    }
  };
  // The worker's script did not load or threw: the connection is down, as when the broker goes away.
  worker.onerror = () => down('The live connection closed');
  try {
    await ask((id) => ({ kind: 'connect', id, url, options }));
  } catch (error) {
    worker.terminate();
    throw error;
  }
  return {
    subscribe: async (topic, onMessage) => {
      handlers.set(topic, onMessage);
      await ask((id) => ({ kind: 'subscribe', id, topic }));
    },
    close: () => {
      ended = true;
      handlers.clear();
      pending.clear();
      post({ kind: 'end' });
    },
    onDown: (listener) => {
      downListeners.push(listener);
    },
  };
};
