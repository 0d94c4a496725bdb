import type { IClientOptions } from 'mqtt';

/** What the page asks of the realtime worker (lib/realtime-worker.ts): one connection per worker. */
export type ToRealtimeWorker =
  | { kind: 'connect'; id: number; url: string; options: IClientOptions }
  | { kind: 'subscribe'; id: number; topic: string }
  | { kind: 'end' };

/** What the realtime worker tells the page: answers to its asks by their id, the topic's messages, a dropped line. */
export type FromRealtimeWorker =
  | { kind: 'done'; id: number }
  | { kind: 'failed'; id: number; message: string }
  | { kind: 'message'; topic: string; payload: string }
  | { kind: 'closed' };
