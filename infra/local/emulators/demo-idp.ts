import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { IDP_RESPONSE_PATH } from '../../../shared/auth/demo-identity-provider';
import { HOSTED_SCOPES } from '../../../shared/auth/hosted-sign-in';
import {
  checkDemoIdpLogin,
  claimsOfAccount,
  DEMO_IDP_ACCOUNTS,
  DEMO_IDP_CSP,
  demoIdpErrorPage,
  demoIdpLoginPage,
} from './demo-idp-accounts';
import { closeServer, type Emulator, listen, readBody } from './listen';

/**
 * The demo organization's own OpenID provider (issue 21): `oidc-provider` (OpenID Certified) with the organization's
 * own people (`demo-idp-accounts.ts`) and its own sign-in page, so "Sign in with Northside Air Network" works with no
 * cloud. Its one client is the local identity layer, which federates to it as Cognito federates to an OIDC provider
 * (docs/decisions/038-local-demo-identity-provider.md). Everything is in memory: a restart forgets its sessions, grants
 * and codes, and its signing key (the layer fetches the JWKS again).
 */

const INTERACTION_PATH = '/interaction/';

export interface DemoIdpClient {
  clientId: string;
  clientSecret: string;
  /** `{identity layer}/oauth2/idpresponse`, as Cognito's redirect URI for an identity provider is. */
  redirectUri: string;
}

export interface DemoIdpOptions {
  port: number;
  /** The identity layer's origin: the provider's one client redirects there. */
  identityLayerUrl: string;
}

type Payload = Record<string, unknown> & { uid?: string; userCode?: string; grantId?: string; consumed?: number };

/**
 * oidc-provider's storage, in memory as its own development adapter is; given explicitly, so that it does not warn at
 * every start that its development adapter is in use. A restart forgets everything.
 */
const memoryAdapter = () => {
  const entries = new Map<string, { payload: Payload; expiresAt?: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) entries.delete(key);
    return entries.get(key)?.payload;
  };
  return class MemoryAdapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: Payload, expiresIn?: number) {
      entries.set(this.key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined });
    }
    async find(id: string) {
      return live(this.key(id));
    }
    async findByUid(uid: string) {
      for (const key of entries.keys()) {
        if (key.startsWith(`${this.model}:`) && live(key)?.uid === uid) return live(key);
      }
      return undefined;
    }
    async findByUserCode(userCode: string) {
      for (const key of entries.keys()) {
        if (key.startsWith(`${this.model}:`) && live(key)?.userCode === userCode) return live(key);
      }
      return undefined;
    }
    async consume(id: string) {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      entries.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, entry] of entries) if (entry.payload.grantId === grantId) entries.delete(key);
    }
  };
};

const html = (response: ServerResponse, status: number, body: string) =>
  response
    .writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': DEMO_IDP_CSP,
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
    })
    .end(body);

export const startDemoIdp = async (options: DemoIdpOptions) => {
  const state: { handle?: (request: IncomingMessage, response: ServerResponse) => Promise<unknown> } = {};
  // The issuer is the provider's own origin, known only once it listens (tests take a free port).
  const server = createServer((request, response) => {
    if (!state.handle) return void response.writeHead(503).end();
    state.handle(request, response).catch((error: unknown) => {
      console.error('Demo identity provider:', error);
      if (!response.headersSent) html(response, 500, demoIdpErrorPage('Something went wrong.'));
    });
  });
  const port = await listen(server, options.port);
  const issuer = `http://localhost:${port}`;
  const client: DemoIdpClient = {
    clientId: 'local-identity-layer',
    // New each start: only the layer, started beside it, is told it.
    clientSecret: randomBytes(32).toString('base64url'),
    redirectUri: `${options.identityLayerUrl.replace(/\/$/, '')}${IDP_RESPONSE_PATH}`,
  };
  // A key of its own (given, so oidc-provider does not fall back to its development key and say so).
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const byId = new Map(DEMO_IDP_ACCOUNTS.map((account) => [account.sub, account]));

  const provider = new Provider(issuer, {
    adapter: memoryAdapter(),
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: [client.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'demo-idp', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    scopes: [...HOSTED_SCOPES],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    // The scopes' claims go in the ID token itself, which is what the identity layer reads.
    conformIdTokenClaims: false,
    pkce: { methods: ['S256'], required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${INTERACTION_PATH}${interaction.uid}` },
    findAccount: (_ctx: unknown, id: string) => {
      const account = byId.get(id);
      return account ? { accountId: id, claims: () => claimsOfAccount(account) } : undefined;
    },
    // Set, so oidc-provider's defaults do not print their notices at every sign-in.
    ttl: { AccessToken: 3600, AuthorizationCode: 60, Grant: 3600, IdToken: 3600, Interaction: 600, Session: 3600 },
    clientBasedCORS: () => false,
  });
  const callback = provider.callback();

  /** Signs the person in and grants the layer the scopes it asked for: it is the organization's own client. */
  const finish = async (request: IncomingMessage, response: ServerResponse, accountId: string, scope: unknown) => {
    const grant = new provider.Grant({ accountId, clientId: client.clientId });
    grant.addOIDCScope(typeof scope === 'string' ? scope : 'openid');
    const grantId = await grant.save();
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  };

  state.handle = async (request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    if (!url.pathname.startsWith(INTERACTION_PATH)) return callback(request, response);
    let details: Awaited<ReturnType<typeof provider.interactionDetails>>;
    try {
      details = await provider.interactionDetails(request, response);
    } catch {
      return html(response, 400, demoIdpErrorPage('This sign-in has expired. Start again from the app.'));
    }
    const action = `${INTERACTION_PATH}${details.uid}`;
    if (details.prompt.name !== 'login' && details.session?.accountId) {
      // Signed in already (the session cookie) and only the grant is missing.
      return finish(request, response, details.session.accountId, details.params.scope);
    }
    if (request.method === 'GET') return html(response, 200, demoIdpLoginPage({ action }));
    if (request.method !== 'POST') return html(response, 405, demoIdpErrorPage('Method not allowed.'));
    const body = await readBody(request, 64 * 1024);
    if (body === 'too-large') return html(response, 413, demoIdpErrorPage('The form is too large.'));
    const form = new URLSearchParams(body.toString('utf8'));
    const email = form.get('email') ?? '';
    const account = checkDemoIdpLogin(email, form.get('password') ?? '');
    if (!account) {
      return html(response, 400, demoIdpLoginPage({ action, email, error: 'Incorrect e-mail or password.' }));
    }
    return finish(request, response, account.sub, details.params.scope);
  };

  const emulator: Emulator & { client: DemoIdpClient } = {
    name: 'demo-idp',
    url: issuer,
    client,
    healthy: async () => (await fetch(`${issuer}/.well-known/openid-configuration`)).ok,
    stop: () => closeServer(server),
  };
  return emulator;
};
