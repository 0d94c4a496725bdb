/**
 * Hosted sign-in (spec §7, issue 21): the OAuth 2.0 authorization-code flow with PKCE, as Cognito's managed login
 * serves it in the cloud and the local identity layer serves it on `npm start`. One definition of the client's
 * side, for the CDK, the local layer and the web app.
 */

/** The web app's route that receives the authorization code (`?code=…&state=…`). */
export const HOSTED_CALLBACK_PATH = '/auth/callback';
/** Where the hosted logout sends the browser back to: the web app's sign-in page, told why. */
export const HOSTED_SIGN_OUT_PATH = '/login';

/** The OpenID Connect scopes: what the web client asks an upstream provider (Google) for, too. */
export const OPENID_SCOPES = ['openid', 'email', 'profile'] as const;

/**
 * The scopes the web client asks for; nothing more is allowed on the client. `aws.cognito.signin.user.admin` lets a
 * hosted session's access token make the account page's own calls (password, authenticator app, signed-in
 * browsers), which Cognito refuses to a token without it; a password session's token always has it.
 */
export const HOSTED_SCOPES = [...OPENID_SCOPES, 'aws.cognito.signin.user.admin'] as const;

/** The callback and sign-out URLs of a web origin (`https://app.example.com`, `http://localhost:5173`). */
export const hostedUrlsOf = (origin: string) => ({
  callbackUrl: `${origin.replace(/\/$/, '')}${HOSTED_CALLBACK_PATH}`,
  signOutUrl: `${origin.replace(/\/$/, '')}${HOSTED_SIGN_OUT_PATH}`,
});

/** The hosted endpoints' paths, the same on Cognito's domain and on the local identity layer. */
export const HOSTED_ENDPOINTS = {
  authorize: '/oauth2/authorize',
  token: '/oauth2/token',
  userInfo: '/oauth2/userInfo',
  revoke: '/oauth2/revoke',
  logout: '/logout',
} as const;

/**
 * A user pool's OpenID Connect discovery document (`{issuer}/.well-known/openid-configuration`) as Cognito answers
 * it once the pool has a domain: the hosted endpoints on the domain's origin, the keys under the issuer. The local
 * identity layer answers the same for its pools, so a relying party that discovers them works in both homes.
 */
export const discoveryDocument = ({ issuer, hostedOrigin }: { issuer: string; hostedOrigin: string }) => {
  const origin = hostedOrigin.replace(/\/$/, '');
  return {
    authorization_endpoint: `${origin}${HOSTED_ENDPOINTS.authorize}`,
    end_session_endpoint: `${origin}${HOSTED_ENDPOINTS.logout}`,
    id_token_signing_alg_values_supported: ['RS256'],
    issuer,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    response_types_supported: ['code', 'token'],
    revocation_endpoint: `${origin}${HOSTED_ENDPOINTS.revoke}`,
    scopes_supported: ['openid', 'email', 'phone', 'profile'],
    subject_types_supported: ['public'],
    token_endpoint: `${origin}${HOSTED_ENDPOINTS.token}`,
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    userinfo_endpoint: `${origin}${HOSTED_ENDPOINTS.userInfo}`,
  };
};

/** Where a pool's discovery document is asked for: `/{poolId}/.well-known/openid-configuration` under the issuer host. */
export const DISCOVERY_PATH = /^\/([\w-]+_[0-9A-Za-z]+)\/\.well-known\/openid-configuration$/;

/** An identity provider on the sign-in page: Cognito's name for it (no blanks) and the label people read. */
export interface HostedProvider {
  name: string;
  label: string;
}

/**
 * The runtime configuration's `auth.oauth` (shared/config/runtime-config.ts), built the same way by the CDK and the
 * local stack: the hosted endpoints' origin, the scopes, and the callback and sign-out URLs of every web origin the
 * client allows.
 */
export const hostedSignInConfig = (input: {
  origin: string;
  webOrigins: readonly string[];
  providers: readonly HostedProvider[];
}) => {
  const urls = [...new Set(input.webOrigins)].map(hostedUrlsOf);
  return {
    origin: input.origin.replace(/\/$/, ''),
    scopes: [...HOSTED_SCOPES],
    redirectSignIn: urls.map((url) => url.callbackUrl),
    redirectSignOut: urls.map((url) => url.signOutUrl),
    providers: input.providers.map(({ name, label }) => ({ name, label })),
  };
};
