import { Amplify } from 'aws-amplify';
import { fetchAuthSession, signOut } from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import { CookieStorage, Hub } from 'aws-amplify/utils';
import type { RuntimeConfig } from '../../../shared/config/runtime-config';
import { TOKEN_COOKIE_DAYS } from './session-rules';

/**
 * The part of sign-in that needs Amplify, loaded on demand through lib/auth.ts (`amplifyAuth()`), so a guest
 * who only browses never downloads it. Nothing else in lib/ imports Amplify's runtime.
 */
export { fetchAuthSession, Hub, signOut };

/**
 * Configures Amplify Auth from the runtime configuration; `userPoolEndpoint` is only set locally. Tokens
 * live in cookies (spec §9: 1 year, path /, same-site and secure as the configuration says), so every tab
 * shares one session.
 */
export const configure = (config: RuntimeConfig): void => {
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
