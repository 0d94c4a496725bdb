import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { closeServer, listen, readBody } from './emulators/listen';

/** The demo organization's webhook posts here (docs/integrations.md, "Locally"). */
export const DEMO_HOOK_PATH = '/hooks/demo';
/** The receiver keeps this many requests, newest first. */
const KEPT = 200;

/** One request the receiver took. */
export interface ReceivedWebhook {
  webhookId: string;
  receivedAt: number;
  verified: boolean;
  /** Why verification failed. */
  error?: string;
  type?: string;
  eventId?: string;
  /** What it carried, in a line: "3 batches of demo-device-2". */
  summary: string;
  body: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const summaryOf = (event: { type?: string; data?: Record<string, unknown> }): string => {
  const data = event.data ?? {};
  if (event.type === 'readings.received') {
    const batches = (data.batches as { deviceId: string; readings: unknown[] }[] | undefined) ?? [];
    const devices = [...new Set(batches.map((batch) => batch.deviceId))].join(', ');
    const readings = batches.reduce((sum, batch) => sum + batch.readings.length, 0);
    return `${batches.length} batch${batches.length === 1 ? '' : 'es'} (${readings} readings) of ${devices}`;
  }
  if (typeof data.deviceId === 'string') return `device ${data.deviceId}`;
  if (typeof data.message === 'string') return data.message;
  return '';
};

const page = (received: readonly ReceivedWebhook[], hookUrl: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="10">
<title>Webhooks received</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:1.5rem;color:#1d2330;background:#fff}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #dde}
.ok{color:#17663a}.bad{color:#a11}code,pre{font:13px ui-monospace,monospace}pre{white-space:pre-wrap;margin:0}
</style></head><body>
<h1>Webhooks received</h1>
<p>The demo receiver: the demo organization's webhook posts to <code>${escapeHtml(hookUrl)}</code>, and each request is
verified with <code>standardwebhooks</code> as a customer's receiver would. Newest first; the page refreshes every 10 s.
As JSON: <a href="/received.json">/received.json</a>.</p>
${
  received.length
    ? `<table><thead><tr><th>Received</th><th>Event</th><th>What</th><th>Signature</th><th>webhook-id</th></tr></thead><tbody>
${received
  .map(
    (
      r,
    ) => `<tr data-testid="received-${escapeHtml(r.webhookId)}"><td>${new Date(r.receivedAt).toISOString().replace('T', ' ').slice(0, 19)}</td>
<td>${escapeHtml(r.type ?? '?')}</td><td><details><summary>${escapeHtml(r.summary)}</summary><pre>${escapeHtml(r.body)}</pre></details></td>
<td class="${r.verified ? 'ok' : 'bad'}">${r.verified ? 'verified' : `refused: ${escapeHtml(r.error ?? '')}`}</td><td><code>${escapeHtml(r.webhookId)}</code></td></tr>`,
  )
  .join('\n')}
</tbody></table>`
    : '<p>Nothing yet: the demo devices report every minute (unless started with --no-simulate).</p>'
}
</body></html>`;

/**
 * A small receiver for the demo organization's webhook (`npm start`): it verifies each request with the
 * `standardwebhooks` package and the webhook's secret (read from `secretFile` on each request, so a rotation shows),
 * answers 204 (or 400 when the signature fails), and lists what came at `/`. What it kept survives a restart.
 */
export const startWebhookReceiver = async ({
  port,
  secretFile,
  keptFile,
}: {
  port: number;
  secretFile: string;
  keptFile: string;
}) => {
  let received: ReceivedWebhook[] = existsSync(keptFile)
    ? (JSON.parse(await readFile(keptFile, 'utf8')) as ReceivedWebhook[])
    : [];
  let writing = Promise.resolve();
  const keep = (entry: ReceivedWebhook) => {
    received = [entry, ...received].slice(0, KEPT);
    const snapshot = JSON.stringify(received);
    writing = writing
      .then(() => writeFile(`${keptFile}.tmp`, snapshot))
      .then(() => rename(`${keptFile}.tmp`, keptFile))
      .catch((error: unknown) => console.error('Webhook receiver could not save:', error));
  };
  let hookUrl = '';

  const answer = (response: ServerResponse, status: number, type: string, body: string) => {
    response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    response.end(body);
  };

  const server = createServer((request, response) => {
    void (async () => {
      const path = new URL(request.url ?? '/', 'http://local').pathname;
      if (request.method === 'POST' && path === DEMO_HOOK_PATH) {
        const body = await readBody(request, 2 * 1024 * 1024);
        if (body === 'too-large') return answer(response, 413, 'text/plain', 'Too large');
        const text = body.toString('utf8');
        const headers = Object.fromEntries(
          ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [
            name,
            String(request.headers[name] ?? ''),
          ]),
        );
        let event: { id?: string; type?: string; data?: Record<string, unknown> } = {};
        let verified = false;
        let error: string | undefined;
        try {
          const secret = (await readFile(secretFile, 'utf8')).trim();
          event = new Webhook(secret).verify(text, headers) as typeof event;
          verified = true;
        } catch (caught) {
          error = caught instanceof Error ? caught.message : String(caught);
          try {
            event = JSON.parse(text) as typeof event;
          } catch {
            event = {};
          }
        }
        keep({
          webhookId: headers['webhook-id']!,
          receivedAt: Date.now(),
          verified,
          ...(error ? { error } : {}),
          ...(event.type ? { type: event.type } : {}),
          ...(event.id ? { eventId: event.id } : {}),
          summary: summaryOf(event),
          body: text.length > 20_000 ? `${text.slice(0, 20_000)}…` : text,
        });
        return verified ? answer(response, 204, 'text/plain', '') : answer(response, 400, 'text/plain', error ?? '');
      }
      if (request.method === 'GET' && path === '/received.json') {
        return answer(response, 200, 'application/json', JSON.stringify(received));
      }
      if (request.method === 'GET' && path === '/')
        return answer(response, 200, 'text/html; charset=utf-8', page(received, hookUrl));
      return answer(response, 404, 'text/plain', 'Not found');
    })().catch((error: unknown) => {
      if (!response.headersSent) answer(response, 500, 'text/plain', String(error));
    });
  });
  const url = `http://localhost:${await listen(server, port)}`;
  hookUrl = `${url}${DEMO_HOOK_PATH}`;
  return {
    url,
    hookUrl,
    received: () => received,
    stop: async () => {
      await writing;
      await closeServer(server);
    },
  };
};

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
