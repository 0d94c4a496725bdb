import { createServer, request, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { closeServer, type Emulator, LOCAL_HOST, listen } from './listen';

const require = createRequire(import.meta.url);
const sesServer = (
  require('aws-ses-v2-local') as { default: (config: { host: string; port: number }) => Promise<Server> }
).default;

/** A link the mail viewer's page shows above the mail (what else the local stack received, e.g. webhooks). */
export interface ViewerLink {
  href: string;
  text: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The viewer's page with the links put under its heading. */
export const withLinks = (html: string, links: readonly ViewerLink[]): string => {
  if (!links.length) return html;
  const nav = `<nav data-testid="viewer-links" style="margin:0 0 1rem">${links
    .map((link) => `<a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a>`)
    .join(' · ')}</nav>`;
  return html.includes('</h1>') ? html.replace('</h1>', `</h1>${nav}`) : html.replace('<body>', `<body>${nav}`);
};

/**
 * aws-ses-v2-local: SES v2 API plus a web page listing every e-mail sent (the mail viewer). A thin front passes every
 * request through and adds `links()` to the viewer's page, so a newcomer finds what the demo webhook received beside
 * the mail.
 */
export const startSes = async ({
  port,
  links = () => [],
}: {
  port: number;
  links?: () => readonly ViewerLink[];
}): Promise<Emulator> => {
  const upstream = await sesServer({ host: LOCAL_HOST, port: 0 });
  const target = (upstream.address() as { port: number }).port;
  const front = createServer((incoming, outgoing) => {
    const page = incoming.method === 'GET' && new URL(incoming.url ?? '/', 'http://local').pathname === '/';
    const forward = request(
      { host: LOCAL_HOST, port: target, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        if (!page || (answer.statusCode ?? 500) >= 300) {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const { 'content-length': _length, etag: _etag, ...headers } = answer.headers;
          outgoing.writeHead(200, { ...headers, 'cache-control': 'no-store' });
          outgoing.end(withLinks(Buffer.concat(chunks).toString('utf8'), links()));
        });
      },
    );
    forward.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(forward);
  });
  const url = `http://localhost:${await listen(front, port)}`;
  return {
    name: 'ses',
    url,
    healthy: async () => (await fetch(`${url}/health-check`)).ok,
    stop: async () => {
      await closeServer(front);
      await closeServer(upstream);
    },
  };
};
