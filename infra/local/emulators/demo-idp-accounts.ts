import { createHash, timingSafeEqual } from 'node:crypto';
import { DEMO_IDENTITY_PROVIDER } from '../../../shared/auth/demo-identity-provider';
import { escapeHtml } from '../cognito-compat/hosted-pages';

/**
 * The demo organization's own people, as its OpenID provider (`demo-idp.ts`) knows them: they are not accounts of the
 * platform. One is nobody on the platform yet (federation creates them), one shares an e-mail with a platform demo
 * account and asserts it verified (linked), one shares an e-mail but asserts it unverified (refused). The password is
 * only for the local stack (docs/decisions/038-local-demo-identity-provider.md).
 */

export const DEMO_IDP_PASSWORD = 'Northside-Demo-Passw0rd';

export interface DemoIdpAccount {
  /** The provider's stable subject: the federated user's name is `NorthsideAir_{sub}`. */
  sub: string;
  email: string;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
}

export const DEMO_IDP_ACCOUNTS: readonly DemoIdpAccount[] = [
  {
    sub: 'nsa-rosa-rivera',
    email: 'rosa.rivera@northside-air.example.com',
    emailVerified: true,
    givenName: 'Rosa',
    familyName: 'Rivera',
  },
  // approved@example.com manages demo-org-1, the Northside Air Network, on the platform.
  {
    sub: 'nsa-april-approved',
    email: 'approved@example.com',
    emailVerified: true,
    givenName: 'April',
    familyName: 'Approved',
  },
  { sub: 'nsa-uma-user', email: 'user@example.com', emailVerified: false, givenName: 'Uma', familyName: 'User' },
];

/** The account whose e-mail and password these are, or undefined; the comparison takes the same time either way. */
export const checkDemoIdpLogin = (
  email: string,
  password: string,
  accounts: readonly DemoIdpAccount[] = DEMO_IDP_ACCOUNTS,
  expected = DEMO_IDP_PASSWORD,
): DemoIdpAccount | undefined => {
  const account = accounts.find((a) => a.email === email.trim().toLowerCase());
  const given = Buffer.from(password);
  const wanted = Buffer.from(expected);
  const matches = given.length === wanted.length && timingSafeEqual(given, wanted);
  return account && matches ? account : undefined;
};

/** The OpenID claims of the scopes `openid email profile`, as the provider asserts them. */
export const claimsOfAccount = (account: DemoIdpAccount) => ({
  sub: account.sub,
  email: account.email,
  email_verified: account.emailVerified,
  given_name: account.givenName,
  family_name: account.familyName,
});

const STYLE = `body{font-family:system-ui,sans-serif;background:#0b3954;margin:0;display:flex;justify-content:center}
main{background:#fff;margin-top:10vh;padding:2rem;border-radius:8px;width:min(22rem,90vw)}
h1{font-size:1.25rem;margin:0 0 1rem;color:#0b3954}label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}
button{margin-top:1.25rem;width:100%;padding:.6rem;font-size:1rem;background:#087e8b;color:#fff;border:0;border-radius:4px}
.error{color:#a40000;background:#fdecec;padding:.5rem;border-radius:4px}`;

/**
 * The pages' CSP: no script, nothing loaded, the one inline style by its hash. The form posts here, but Chromium
 * applies `form-action` to every redirect that follows the POST too: on to the identity layer's
 * `/oauth2/idpresponse` and from there to the web app's callback, all on this machine's loopback origins.
 */
export const DEMO_IDP_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self' http://localhost:*",
].join('; ');

/** The provider's own sign-in form: posted back to the interaction it belongs to. */
export const demoIdpLoginPage = ({ action, email = '', error }: { action: string; email?: string; error?: string }) =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in to ${DEMO_IDENTITY_PROVIDER.label}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Sign in to ${DEMO_IDENTITY_PROVIDER.label}</h1>
${error ? `<p class="error" role="alert" id="form-error">${escapeHtml(error)}</p>\n` : ''}<form method="post" action="${escapeHtml(action)}"${error ? ' aria-describedby="form-error"' : ''}>
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>
`;

/** A page for what cannot go on (an unknown or expired interaction). */
export const demoIdpErrorPage = (message: string) =>
  `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${DEMO_IDENTITY_PROVIDER.label}</title><style>${STYLE}</style></head>
<body><main><h1>${DEMO_IDENTITY_PROVIDER.label}</h1><p class="error" role="alert">${escapeHtml(message)}</p></main></body>
</html>
`;
