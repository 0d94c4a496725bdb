import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { DISCOVERY_PATH, discoveryDocument } from '../../shared/auth/hosted-sign-in';
import { ownValue } from '../../shared/objects/own-value';
import { USER_POOL } from '../definitions/auth';
import { FEDERATED_SIGN_IN_TARGET } from './cognito-compat/federated-users';
import type { FederationProvider } from './cognito-compat/federation';
import { type HostedClient, hostedClientOf } from './cognito-compat/hosted-rules';
import { createHostedSignIn } from './cognito-compat/hosted-sign-in';
import { closeServer, type Emulator, listen, readBody } from './emulators/listen';

/**
 * The small compatibility layer in front of cognito-local (docs/architecture.md#the-two-homes): it makes the local
 * identity provider behave like Cognito where the app depends on it, so app and Amplify code are the same in both homes
 * (docs/decisions/004-cognito-compatibility-layer.md). It has two halves:
 * - this HTTP front, on the public port, for what is about the wire: CORS for the browser, the pool's
 *   password policy on every operation that sets a password, and GetTokensFromRefreshToken (current
 *   Amplify's refresh) served through REFRESH_TOKEN_AUTH;
 * - `cognito-compat/targets.ts`, composed into cognito-local's router, for what needs its user records:
 *   disabled users and revoked tokens refused, global sign-out, admin password reset, resending the
 *   confirmation code, refresh after an MFA sign-in, and AdminListUserAuthEvents answered as on a pool
 *   without the advanced-security add-on.
 * The front also serves Cognito's hosted endpoints (authorize, token, userInfo, revoke, logout) for the local web
 * client (`cognito-compat/hosted-sign-in.ts`, docs/decisions/035-local-hosted-sign-in.md), and each pool's discovery
 * document naming them, as Cognito's does once a pool has a domain.
 * Everything else passes through unchanged.
 */

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
const JSON_TYPE = 'application/x-amz-json-1.1';

type Body = Record<string, unknown>;

/**
 * cognito-local keeps users and groups in plain objects keyed by name, so `__proto__`, `constructor` or `toString`
 * finds Object.prototype's members there instead of nobody (a user with no attributes, or a crash). No user or group
 * of ours can have such a name (usernames are UUIDs): they are answered as Cognito answers any unknown name.
 */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

const unknownName = (body: Body): CognitoFault | undefined => {
  const named = (value: unknown) => typeof value === 'string' && PROTOTYPE_NAMES.has(value);
  if (named(body.Username)) return new CognitoFault('UserNotFoundException', 'User does not exist.');
  if (named(body.GroupName)) return new CognitoFault('ResourceNotFoundException', 'Group not found.');
  const auth = body.AuthParameters as Body | undefined;
  if (auth && named(auth.USERNAME))
    return new CognitoFault('NotAuthorizedException', 'Incorrect username or password.');
  return undefined;
};

class CognitoFault extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** Cognito's own wording for a password that breaks the policy. */
export const passwordPolicyViolation = (password: string, policy = USER_POOL.passwordPolicy): string | undefined => {
  const problems: string[] = [];
  if (password.length < policy.minLength) problems.push(`Password not long enough (minimum ${policy.minLength})`);
  if (policy.requireLowercase && !/[a-z]/.test(password)) problems.push('Password must have lowercase characters');
  if (policy.requireUppercase && !/[A-Z]/.test(password)) problems.push('Password must have uppercase characters');
  if (policy.requireDigits && !/[0-9]/.test(password)) problems.push('Password must have numeric characters');
  if (policy.requireSymbols && !/[^A-Za-z0-9]/.test(password)) problems.push('Password must have symbol characters');
  return problems.length ? `Password does not conform to policy: ${problems.join('; ')}` : undefined;
};

const PASSWORD_FIELDS: Record<string, string> = {
  SignUp: 'Password',
  ChangePassword: 'ProposedPassword',
  ConfirmForgotPassword: 'Password',
  AdminSetUserPassword: 'Password',
  AdminCreateUser: 'TemporaryPassword',
};

export interface CognitoCompatOptions {
  port: number;
  /** cognito-local's private URL; set once it has started (it needs our URL as its token issuer first). */
  upstream?: string;
  /** @default Date.now; the clock of the hosted sign-in's authorization codes (tests move it) */
  now?: () => number;
}

/** The local web client as the hosted endpoints know it: the pool's client id and the web app's origins. */
export interface HostedClientOptions {
  clientId: string;
  webOrigins: readonly string[];
}

export const startCognitoCompat = async (options: CognitoCompatOptions) => {
  const state: { upstream?: string; hostedClient?: HostedClient; providers: FederationProvider[] } = {
    upstream: options.upstream,
    providers: [],
  };

  const call = async (target: string, body: Body): Promise<Body> => {
    const response = await fetch(`${state.upstream}/`, {
      method: 'POST',
      headers: { 'content-type': JSON_TYPE, 'x-amz-target': `${TARGET_PREFIX}${target}` },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? (JSON.parse(text) as Body) : {};
    if (!response.ok) {
      throw new CognitoFault(
        String(parsed.code ?? parsed.__type ?? 'InternalErrorException'),
        String(parsed.message ?? text),
        response.status,
      );
    }
    return parsed;
  };

  // The hosted pages call through the same guard as the JSON API (names like `__proto__` are nobody).
  const hosted = createHostedSignIn({
    call: (target, body) => {
      const unknown = unknownName(body);
      return unknown ? Promise.reject(unknown) : call(target, body);
    },
    client: () => state.hostedClient,
    now: options.now,
    providers: () => state.providers,
  });

  const overrides: Record<string, (body: Body) => Promise<Body | undefined>> = {
    GetTokensFromRefreshToken: async (body) => {
      const result = await call('InitiateAuth', {
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: body.ClientId,
        AuthParameters: { REFRESH_TOKEN: body.RefreshToken },
      });
      return { AuthenticationResult: result.AuthenticationResult };
    },
  };

  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    // Identity requests are a few KB; the bound only guards the local process.
    const raw = await readBody(request, 1024 * 1024);
    if (raw === 'too-large') {
      response.writeHead(413).end();
      return;
    }
    const targetHeader = request.headers['x-amz-target'];
    const target =
      typeof targetHeader === 'string' && targetHeader.startsWith(TARGET_PREFIX)
        ? targetHeader.slice(TARGET_PREFIX.length)
        : undefined;
    // Browsers (Amplify) call cross-origin; Cognito answers CORS for any origin.
    const cors = {
      'access-control-allow-origin': request.headers.origin ?? '*',
      'access-control-allow-headers': '*',
      'access-control-allow-methods': 'GET,POST,OPTIONS',
      'access-control-expose-headers': 'x-amzn-requestid,x-amzn-errortype,x-amzn-errormessage,date',
    };
    if (request.method === 'OPTIONS') {
      response.writeHead(204, cors).end();
      return;
    }
    try {
      if (!state.upstream) throw new CognitoFault('ServiceUnavailableException', 'Local Cognito is starting', 503);
      const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
      // cognito-local's own document names none of the hosted endpoints, and a fixed port: ours, as Cognito's.
      const discovery = request.method === 'GET' ? DISCOVERY_PATH.exec(pathname) : null;
      if (!target && discovery) {
        response
          .writeHead(200, { ...cors, 'content-type': 'application/json' })
          .end(JSON.stringify(discoveryDocument({ issuer: `${url}/${discovery[1]}`, hostedOrigin: url })));
        return;
      }
      if (!target && hosted.handles(pathname)) {
        await hosted.handle(request, response, raw, cors);
        return;
      }
      // The layer's own federated sign-in signs a person in without a password: only the hosted pages may call it.
      if (target === FEDERATED_SIGN_IN_TARGET) {
        throw new CognitoFault('UnknownOperationException', `Unknown operation ${target}`);
      }
      if (target) {
        const body = raw.length ? (JSON.parse(raw.toString('utf8')) as Body) : {};
        const unknown = unknownName(body);
        if (unknown) throw unknown;
        const field = ownValue(PASSWORD_FIELDS, target);
        const password = field ? body[field] : undefined;
        if (typeof password === 'string') {
          const violation = passwordPolicyViolation(password);
          if (violation) throw new CognitoFault('InvalidPasswordException', violation);
        }
        const override = await ownValue(overrides, target)?.(body);
        if (override) {
          response.writeHead(200, { ...cors, 'content-type': JSON_TYPE }).end(JSON.stringify(override));
          return;
        }
      }
      const upstream = await fetch(`${state.upstream}${request.url ?? '/'}`, {
        method: request.method,
        headers: Object.fromEntries(
          Object.entries(request.headers).filter(
            ([k, v]) => typeof v === 'string' && !['host', 'content-length', 'connection'].includes(k),
          ),
        ) as Record<string, string>,
        body: request.method === 'GET' || request.method === 'HEAD' ? undefined : new Uint8Array(raw),
      });
      const headers: Record<string, string> = { ...cors };
      upstream.headers.forEach((value, key) => {
        if (
          !['content-length', 'transfer-encoding', 'connection'].includes(key) &&
          !key.startsWith('access-control-')
        ) {
          headers[key] = value;
        }
      });
      response.writeHead(upstream.status, headers).end(Buffer.from(await upstream.arrayBuffer()));
    } catch (error) {
      const fault =
        error instanceof CognitoFault
          ? error
          : new CognitoFault('InternalErrorException', error instanceof Error ? error.message : String(error), 500);
      response
        .writeHead(fault.status, { ...cors, 'content-type': JSON_TYPE, 'x-amzn-errortype': fault.type })
        .end(JSON.stringify({ __type: fault.type, message: fault.message }));
    }
  });
  const port = await listen(server, options.port);
  const url = `http://localhost:${port}`;
  const emulator: Emulator & {
    setUpstream: (u: string) => void;
    setHostedClient: (client: HostedClientOptions) => void;
    addFederationProvider: (provider: FederationProvider) => void;
  } = {
    name: 'cognito',
    url,
    healthy: async () => Boolean(state.upstream) && (await fetch(`${url}/health`)).ok,
    stop: () => closeServer(server),
    setUpstream: (upstream) => {
      state.upstream = upstream;
    },
    /** Set once the pool's client and the web app's origin are known; the hosted endpoints refuse every client before. */
    setHostedClient: ({ clientId, webOrigins }) => {
      state.hostedClient = hostedClientOf(clientId, webOrigins);
    },
    /** An OIDC provider the web client may name in `identity_provider` (the demo organization's, docs/decisions/038). */
    addFederationProvider: (provider) => {
      state.providers = [...state.providers.filter((p) => p.name !== provider.name), provider];
    },
  };
  return emulator;
};
