import { Amplify } from 'aws-amplify';
import { decodeJWT, fetchAuthSession, signOut } from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import { CookieStorage, Hub } from 'aws-amplify/utils';
import type { RuntimeConfig } from '../../../shared/config/runtime-config';
import { TOKEN_COOKIE_DAYS } from './session-rules';

/**
 * The part of sign-in that needs Amplify, loaded on demand through lib/auth.ts (`amplifyAuth()`), so a guest
 * who only browses never downloads it. Nothing else in lib/ imports Amplify's runtime.
 */
export { fetchAuthSession, Hub, signOut };

let hostedOrigin: string | undefined;

/**
 * Configures Amplify Auth from the runtime configuration; `userPoolEndpoint` is only set locally. Tokens
 * live in cookies (spec §9: 1 year, path /, same-site and secure as the configuration says), so every tab
 * shares one session.
 */
export const configure = (config: RuntimeConfig): void => {
  hostedOrigin = config.auth.oauth?.origin;
  const { userPoolId, userPoolClientId, userPoolEndpoint, identityPoolId } = config.auth;
  const userPool = {
    userPoolId,
    userPoolClientId,
    ...(userPoolEndpoint ? { userPoolEndpoint } : {}),
    loginWith: { email: true },
    signUpVerificationMethod: 'code' as const,
    mfa: { status: 'optional' as const, totpEnabled: true, smsEnabled: false },
  };
  // Cloud only: the identity pool's credentials sign the live view's IoT Core connection.
  if (identityPoolId)
    Amplify.configure({ Auth: { Cognito: { ...userPool, identityPoolId, allowGuestAccess: false } } });
  else Amplify.configure({ Auth: { Cognito: userPool } });
  cognitoUserPoolsTokenProvider.setKeyValueStorage(
    new CookieStorage({
      path: '/',
      expires: TOKEN_COOKIE_DAYS,
      sameSite: config.cookies.sameSite,
      secure: config.cookies.secure,
    }),
  );
};

/**
 * Hands the hosted sign-in's tokens to Amplify's token store (the cookies above), as Amplify's own redirect sign-in
 * does after its token exchange: from here on Amplify refreshes, reads and revokes them like a password session's.
 */
export const storeTokens = async (tokens: { access_token: string; id_token?: string; refresh_token?: string }) => {
  const accessToken = decodeJWT(tokens.access_token);
  await cognitoUserPoolsTokenProvider.tokenOrchestrator.setTokens({
    tokens: {
      accessToken,
      idToken: tokens.id_token ? decodeJWT(tokens.id_token) : undefined,
      refreshToken: tokens.refresh_token,
      // Amplify corrects its expiry checks by the difference between the issuer's clock and this one.
      clockDrift: (accessToken.payload.iat ?? 0) * 1000 - Date.now(),
      username: String(accessToken.payload.username ?? accessToken.payload.sub),
    },
  });
};

/** Set while the session came from the hosted sign-in: the hosted logout URL its sign-out goes through. */
const HOSTED_SESSION_KEY = 'ddp.hosted-session';

/** Marks the session as the hosted sign-in's; its sign-out then ends the hosted page's session too. */
export const markHostedSession = (logoutUrl: string | undefined): void => {
  try {
    if (logoutUrl) localStorage.setItem(HOSTED_SESSION_KEY, logoutUrl);
  } catch {
    // Without storage the sign-out ends the app's session only; the hosted one runs out on its own.
  }
};

/**
 * The hosted logout to go through on sign-out, if the session came from the hosted sign-in, and forgets it. Only
 * ever this environment's hosted domain, whatever the stored value says.
 */
export const takeHostedLogout = (): string | undefined => {
  try {
    const logout = localStorage.getItem(HOSTED_SESSION_KEY);
    localStorage.removeItem(HOSTED_SESSION_KEY);
    return logout && hostedOrigin && logout.startsWith(`${hostedOrigin}/`) ? logout : undefined;
  } catch {
    return undefined;
  }
};
