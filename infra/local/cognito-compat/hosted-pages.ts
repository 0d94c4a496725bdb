import type { ServerResponse } from 'node:http';
/**
 * The local hosted sign-in's pages: server-rendered HTML with no script (the same rule as the app's CSP), one small
 * stylesheet served beside them, and every value escaped.
 */

/**
 * A hosted endpoint's redirect (302): never cached, and with no referrer, so the code or state in the URL it leaves
 * reaches no third party. `headers` adds to it (the federation's state cookie).
 */
export const redirect = (response: ServerResponse, location: string, headers: Record<string, string> = {}) =>
  response
    .writeHead(302, { ...headers, location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
    .end();

export const STYLESHEET_PATH = '/oauth2/hosted-sign-in.css';

export const STYLESHEET = `body{font-family:system-ui,sans-serif;background:#f4f6f8;margin:0;display:flex;justify-content:center}
main{background:#fff;margin-top:10vh;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002;width:min(22rem,90vw)}
h1{font-size:1.25rem;margin:0 0 1rem}label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input[type=email],input[type=password],input[type=text]{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}
button{margin-top:1.25rem;width:100%;padding:.6rem;font-size:1rem;background:#1f5fbf;color:#fff;border:0;border-radius:4px}
.error{color:#a40000;background:#fdecec;padding:.5rem;border-radius:4px}
`;

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;

const hidden = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');

const alert = (error: string | undefined) =>
  error ? `<p class="error" role="alert" id="form-error">${escapeHtml(error)}</p>\n` : '';

/** The sign-in form; `fields` are the authorize request's parameters, posted back and checked again. */
export const signInPage = ({
  action,
  fields,
  email = '',
  error,
}: {
  action: string;
  fields: Record<string, string>;
  email?: string;
  error?: string;
}) =>
  layout(
    'Sign in',
    `<h1>Sign in</h1>
${alert(error)}<form method="post" action="${escapeHtml(action)}"${error ? ' aria-describedby="form-error"' : ''}>
${hidden(fields)}
<label for="email">E-mail</label>
<input id="email" name="username" type="email" autocomplete="username" required value="${escapeHtml(email)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  );

/** The second step when the person has an authenticator app (the SOFTWARE_TOKEN_MFA challenge). */
export const mfaPage = ({
  action,
  fields,
  error,
}: {
  action: string;
  fields: Record<string, string>;
  error?: string;
}) =>
  layout(
    'Enter your authentication code',
    `<h1>Enter your authentication code</h1>
${alert(error)}<form method="post" action="${escapeHtml(action)}">
${hidden(fields)}
<label for="code">Code from your authenticator app</label>
<input id="code" name="mfa_code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required>
<button type="submit">Continue</button>
</form>`,
  );

/** A refusal that is never redirected (unknown client, redirect or logout URI not on the list). */
export const errorPage = (message: string) =>
  layout('Sign-in error', `<h1>Something went wrong</h1>\n<p class="error" role="alert">${escapeHtml(message)}</p>`);
