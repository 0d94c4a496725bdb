import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { SendOutcome, WebhookSender } from '../domain/ports';
import { type TargetPolicy, urlProblem } from '../domain/target-policy';
import { KEPT_ANSWER_BYTES, SEND_TIMEOUT_MS } from '../domain/webhook-rules';

/**
 * Addresses allowed on one machine besides public ones: loopback and the private ranges (a receiver on the developer's
 * network). Link-local, the metadata address and the unspecified address stay refused, as in the cloud.
 */
const LOCAL_ALLOWED = ['127.0.0.0/8', '::1/128', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'];

/**
 * POSTs webhook deliveries (docs/integrations.md, "Safe targets"). Every connection goes through request-filtering-agent,
 * which checks the address a name resolved to at the moment it connects (so a name that points at 127.0.0.1, or that
 * changes after the webhook was saved, is refused), and a literal address before connecting. Redirects are not
 * followed (node:http never does): a 3xx is an answer like any other, and not a 2xx. The whole attempt, answer
 * included, has 15 seconds; at most 1 KB of the answer is read.
 */
export const createHttpSender = ({
  policy,
  timeoutMs = SEND_TIMEOUT_MS,
}: {
  policy: TargetPolicy;
  timeoutMs?: number;
}): WebhookSender => {
  const filter = policy === 'local' ? { allowIPAddressList: LOCAL_ALLOWED } : {};
  // Kept alive: a lane sends many requests to one receiver, one after another.
  const agents = {
    'http:': new RequestFilteringHttpAgent({ keepAlive: true, ...filter }),
    'https:': new RequestFilteringHttpsAgent({ keepAlive: true, ...filter }),
  };

  return {
    send: ({ url, body, headers }) =>
      new Promise<SendOutcome>((resolve) => {
        const started = performance.now();
        const elapsed = () => performance.now() - started;
        const problem = urlProblem(url, policy);
        if (problem) {
          resolve({ error: `Refused: ${problem}`, durationMs: 0, refused: true });
          return;
        }
        const target = new URL(url);
        const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
        let settled = false;
        const finish = (outcome: SendOutcome) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(outcome);
        };
        const outgoing = send(
          target,
          {
            method: 'POST',
            agent: agents[target.protocol as 'http:' | 'https:'],
            headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          },
          (answer) => {
            const chunks: Buffer[] = [];
            let kept = 0;
            const done = () =>
              finish({
                statusCode: answer.statusCode ?? 0,
                durationMs: elapsed(),
                response: Buffer.concat(chunks).toString('utf8'),
              });
            answer.on('data', (chunk: Buffer) => {
              if (kept >= KEPT_ANSWER_BYTES) return;
              chunks.push(chunk.subarray(0, KEPT_ANSWER_BYTES - kept));
              kept += Math.min(chunk.length, KEPT_ANSWER_BYTES - kept);
              // Enough is kept: the rest is not waited for.
              if (kept >= KEPT_ANSWER_BYTES) {
                done();
                answer.destroy();
              }
            });
            answer.on('end', done);
            answer.on('error', done);
          },
        );
        const timer = setTimeout(() => {
          outgoing.destroy();
          finish({ error: `No answer within ${Math.round(timeoutMs / 1000)} s`, durationMs: elapsed() });
        }, timeoutMs);
        outgoing.on('error', (error) => {
          const refused = /is not allowed/.test(error.message);
          finish({
            error: refused ? `Refused: ${error.message.replace(/^DNS lookup /, '')}` : error.message || String(error),
            durationMs: elapsed(),
            ...(refused ? { refused: true } : {}),
          });
        });
        outgoing.end(body);
      }),
  };
};
