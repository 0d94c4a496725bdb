import mqtt, { type MqttClient } from 'mqtt';
import type { FromRealtimeWorker, ToRealtimeWorker } from './realtime-protocol';

/**
 * The live view's MQTT client, in a Web Worker of its own (decision 107): MQTT.js (about 100 kB of script) is
 * evaluated, connects and decodes its packets here, off the page's main thread; only the topic's messages, as text,
 * cross to the page. lib/realtime.ts starts one worker per connection and speaks to it with realtime-protocol.ts.
 */
const scope = self as unknown as {
  postMessage: (message: FromRealtimeWorker) => void;
  onmessage: ((event: MessageEvent<ToRealtimeWorker>) => void) | null;
  close: () => void;
};

const send = (message: FromRealtimeWorker) => scope.postMessage(message);
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

let client: MqttClient | undefined;

scope.onmessage = ({ data }) => {
  if (data.kind === 'connect') {
    mqtt.connectAsync(data.url, data.options).then(
      (opened) => {
        client = opened;
        opened.on('message', (topic, payload) => send({ kind: 'message', topic, payload: payload.toString() }));
        opened.on('close', () => send({ kind: 'closed' }));
        send({ kind: 'done', id: data.id });
      },
      (error: unknown) => send({ kind: 'failed', id: data.id, message: reasonOf(error) }),
    );
  } else if (data.kind === 'subscribe') {
    if (!client) return send({ kind: 'failed', id: data.id, message: 'The live connection is not open' });
    client.subscribeAsync(data.topic, { qos: 0 }).then(
      () => send({ kind: 'done', id: data.id }),
      (error: unknown) => send({ kind: 'failed', id: data.id, message: reasonOf(error) }),
    );
  } else {
    // The page has let go of the connection (it ignores what still comes): the worker ends with its client.
    scope.onmessage = null;
    if (client) client.end(true, () => scope.close());
    else scope.close();
  }
};
