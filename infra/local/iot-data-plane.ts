import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Aedes } from 'aedes';
import { parseWatcherTopic } from '../../shared/iot/realtime';
import { readBody } from './emulators/listen';

/** IoT Core's limit on one message's payload. */
const MAX_PAYLOAD_BYTES = 128 * 1024;

const answer = (response: ServerResponse, status: number, type?: string, message?: string) => {
  response.writeHead(status, { 'content-type': 'application/json', ...(type ? { 'x-amzn-errortype': type } : {}) });
  response.end(message ? JSON.stringify({ message }) : '{}');
};

/**
 * The local stand-in for IoT Core's data plane Publish, as `@aws-sdk/client-iot-data-plane` calls it:
 * `POST /topics/{topic}?qos=N` with the payload as body. It publishes straight into the broker (as the platform,
 * not as a client, so no client's authorization applies). Like the Lambdas' `iot:Publish` grant in the cloud, it
 * publishes only to watcher topics (`{env}/identities/…/live`).
 */
export const createIotDataPlane =
  (broker: Aedes) =>
  async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const match = /^\/topics\/(.+)$/.exec(url.pathname);
    if (request.method !== 'POST' || !match) return answer(response, 404, 'ResourceNotFoundException', 'Not found');
    const topic = decodeURIComponent(match[1]!);
    if (!parseWatcherTopic(topic)) {
      return answer(response, 403, 'ForbiddenException', `Not authorized to publish to ${topic}`);
    }
    const qos = Number(url.searchParams.get('qos') ?? 0);
    if (qos !== 0 && qos !== 1) return answer(response, 400, 'InvalidRequestException', 'qos must be 0 or 1');
    const payload = await readBody(request, MAX_PAYLOAD_BYTES);
    if (payload === 'too-large') return answer(response, 413, 'RequestEntityTooLargeException', 'Payload too large');
    await new Promise<void>((resolve, reject) =>
      broker.publish({ cmd: 'publish', topic, payload, qos, retain: false, dup: false }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    answer(response, 200);
  };
