import { createRequire } from 'node:module';
import type { Services } from 'cognito-local/lib/services';
import type { Context } from 'cognito-local/lib/services/context';
import type { User, UserPoolService } from 'cognito-local/lib/services/userPoolService';
import { ownValue } from '../../../shared/objects/own-value';
import { claimsOf, originOf, refreshTokenId, signedHere, stampOrigin } from './origin-jti';
import { type SignOutRegistry, signOutSettledAt, tokenRevoked } from './sign-outs';

/**
 * The operations of the compatibility layer that need cognito-local's own user records, its code generator
 * and its message delivery (so codes reach the local SES like every other code it sends). They are composed
 * into cognito-local's router in-process (`infra/local/emulators/cognito.ts`); the HTTP front
 * (`infra/local/cognito-compat.ts`) keeps what is about the wire only. Errors use Cognito's types and words.
 */

const require = createRequire(import.meta.url);
// cognito-local's server answers an instance of its own CognitoError as `{ __type, message }` with status 400.
const { CognitoError } = require('cognito-local/lib/errors') as {
  CognitoError: new (code: string, message: string) => Error;
};

type Request = Record<string, unknown>;
type Route = (ctx: Context, req: Request) => Promise<unknown>;
export type CognitoRouter = (target: string) => Route;

export const fault = (type: string, message: string): Error => new CognitoError(type, message);

// Cognito's own wording for each case.
export const MESSAGES = {
  disabled: 'User is disabled.',
  refreshRevoked: 'Refresh Token has been revoked',
  accessRevoked: 'Access Token has been revoked',
  resetRequired: 'Password reset required for the user',
  badCredentials: 'Incorrect username or password.',
  invalidRefreshToken: 'Invalid Refresh Token',
  userNotFound: 'User does not exist.',
  alreadyConfirmed: 'User is already confirmed.',
  noContact: 'Cannot reset password for the user as there is no registered/verified email or phone_number',
  addOnNotEnabled: 'User pool add-ons are not enabled for this user pool.',
} as const;

interface TokenClaims {
  iat?: number;
  username?: string;
  'cognito:username'?: string;
  client_id?: string;
}

/** The claims the layer reads of a cognito-local JWT (unverified: cognito-local issued it and checks it itself). */
export const tokenClaims = (token: unknown): TokenClaims | undefined => claimsOf(token) as TokenClaims | undefined;

const emailOf = (user: User) => user.Attributes.find((a) => a.Name === 'email')?.Value;
const byEmail = (email: string) => ({ AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: email }) as const;

/** Cognito shows where a code went without the address: `a***@e***`. */
export const maskedEmail = (email: string) => {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***`;
};

const REFRESH_FLOWS = new Set(['REFRESH_TOKEN_AUTH', 'REFRESH_TOKEN']);

export const withCompatTargets = (
  base: CognitoRouter,
  services: Pick<Services, 'cognito' | 'messages' | 'otp' | 'clock'>,
  signOuts: SignOutRegistry,
  /** @default waits for real time; tests pass a no-op */
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): CognitoRouter => {
  const { cognito, messages, otp, clock } = services;

  const existingUser = async (ctx: Context, pool: UserPoolService, username: unknown) => {
    const user = typeof username === 'string' ? await pool.getUserByUsername(ctx, username) : null;
    if (!user) throw fault('UserNotFoundException', MESSAGES.userNotFound);
    return user;
  };

  /** A token of a disabled user, or one issued before the user's last global sign-out, is refused. */
  const checkSession = (user: User, issuedAt: number | undefined, revoked: string) => {
    if (user.Enabled === false) throw fault('NotAuthorizedException', MESSAGES.disabled);
    if (issuedAt !== undefined && tokenRevoked(issuedAt, signOuts.signedOutAt(user.Username))) {
      throw fault('NotAuthorizedException', revoked);
    }
  };

  /**
   * Cognito refuses every call made with an access token that sign-out revoked (GetUser, ChangePassword, …): a global
   * sign-out's, or RevokeToken's of the refresh token it came from (cognito-local's RevokeToken removes that token
   * from the user's record).
   */
  const checkAccessToken = async (ctx: Context, req: Request) => {
    const claims = tokenClaims(req.AccessToken);
    if (!claims?.client_id || !claims.username) return;
    const pool = await cognito.getUserPoolForClientId(ctx, claims.client_id).catch(() => undefined);
    const user = await pool?.getUserByUsername(ctx, claims.username);
    if (!user) return;
    checkSession(user, claims.iat, MESSAGES.accessRevoked);
    const origin = originOf(req.AccessToken);
    if (origin && !(user.RefreshTokens ?? []).some((token) => refreshTokenId(token) === origin)) {
      throw fault('NotAuthorizedException', MESSAGES.accessRevoked);
    }
  };

  const beforeAuth = async (ctx: Context, pool: UserPoolService, flow: unknown, parameters: Request) => {
    if (typeof flow === 'string' && REFRESH_FLOWS.has(flow)) {
      const token = parameters.REFRESH_TOKEN;
      const user = typeof token === 'string' ? await pool.getUserByRefreshToken(ctx, token) : null;
      if (user) checkSession(user, tokenClaims(token)?.iat ?? 0, MESSAGES.refreshRevoked);
      else if (signedHere(token, clock.get().getTime())) throw fault('NotAuthorizedException', MESSAGES.refreshRevoked);
      return;
    }
    // cognito-local lets a disabled user sign in.
    const user =
      typeof parameters.USERNAME === 'string' ? await pool.getUserByUsername(ctx, parameters.USERNAME) : null;
    if (user?.Enabled === false) throw fault('NotAuthorizedException', MESSAGES.disabled);
    // cognito-local offers the new-password challenge before it checks the (temporary) password.
    if (user?.UserStatus === 'FORCE_CHANGE_PASSWORD' && user.Password !== parameters.PASSWORD) {
      throw fault('NotAuthorizedException', MESSAGES.badCredentials);
    }
  };

  /**
   * Sign-in refusals in Cognito's words. The web client prevents user-existence errors (as the cloud one
   * does), so an unknown user and a wrong password read the same; cognito-local answers a wrong password
   * with InvalidPasswordException, which Cognito only uses for a password that breaks the policy.
   */
  const cognitoWording = async <T>(flow: unknown, call: Promise<T>): Promise<T> => {
    try {
      return await call;
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      const refresh = typeof flow === 'string' && REFRESH_FLOWS.has(flow);
      if (code === 'PasswordResetRequiredException') {
        throw fault('PasswordResetRequiredException', MESSAGES.resetRequired);
      }
      if (code === 'InvalidPasswordException' || code === 'UserNotFoundException') {
        throw fault('NotAuthorizedException', MESSAGES.badCredentials);
      }
      if (code === 'NotAuthorizedException' && message === 'User not authorized') {
        throw fault('NotAuthorizedException', refresh ? MESSAGES.invalidRefreshToken : MESSAGES.badCredentials);
      }
      throw error;
    }
  };

  const signOutEverywhere = async (username: string) => {
    const at = clock.get().getTime();
    await signOuts.record(username, at);
    // Answer only once the second of the sign-out is over: see sign-outs.ts.
    await sleep(Math.max(0, signOutSettledAt(at) - Date.now()));
    return {};
  };

  const targets: Record<string, (ctx: Context, req: Request) => Promise<unknown>> = {
    InitiateAuth: async (ctx, req) => {
      const pool = await cognito.getUserPoolForClientId(ctx, String(req.ClientId));
      const parameters = (req.AuthParameters ?? {}) as Request;
      await beforeAuth(ctx, pool, req.AuthFlow, parameters);
      return stampOrigin(await cognitoWording(req.AuthFlow, base('InitiateAuth')(ctx, req)), parameters.REFRESH_TOKEN);
    },
    AdminInitiateAuth: async (ctx, req) => {
      const pool = await cognito.getUserPool(ctx, String(req.UserPoolId));
      const parameters = (req.AuthParameters ?? {}) as Request;
      await beforeAuth(ctx, pool, req.AuthFlow, parameters);
      return stampOrigin(
        await cognitoWording(req.AuthFlow, base('AdminInitiateAuth')(ctx, req)),
        parameters.REFRESH_TOKEN,
      );
    },

    // cognito-local keeps the refresh token of a password sign-in but not of one finished by a challenge
    // (MFA, new password), so those sessions could not refresh.
    RespondToAuthChallenge: async (ctx, req) => {
      const result = (await base('RespondToAuthChallenge')(ctx, req)) as {
        AuthenticationResult?: { RefreshToken?: string };
      };
      const refreshToken = result.AuthenticationResult?.RefreshToken;
      if (refreshToken) {
        const pool = await cognito.getUserPoolForClientId(ctx, String(req.ClientId));
        const username = (req.ChallengeResponses as Request | undefined)?.USERNAME;
        await pool.storeRefreshToken(ctx, refreshToken, await existingUser(ctx, pool, username));
      }
      return stampOrigin(result);
    },

    // cognito-local refuses a wrong current password with InvalidPasswordException; Cognito keeps that for a
    // new password that breaks the policy (checked in front) and says this instead.
    ChangePassword: async (ctx, req) => {
      try {
        return await base('ChangePassword')(ctx, req);
      } catch (error) {
        if ((error as { code?: string }).code === 'InvalidPasswordException') {
          throw fault('NotAuthorizedException', MESSAGES.badCredentials);
        }
        throw error;
      }
    },

    GlobalSignOut: async (ctx, req) => {
      const claims = tokenClaims(req.AccessToken);
      if (!claims?.client_id || !claims.username) throw fault('NotAuthorizedException', 'Invalid Access Token');
      const pool = await cognito.getUserPoolForClientId(ctx, claims.client_id);
      return signOutEverywhere((await existingUser(ctx, pool, claims.username)).Username);
    },
    AdminUserGlobalSignOut: async (ctx, req) => {
      const pool = await cognito.getUserPool(ctx, String(req.UserPoolId));
      return signOutEverywhere((await existingUser(ctx, pool, req.Username)).Username);
    },

    /** The user must reset: sign-in is refused until ConfirmForgotPassword with the e-mailed code. */
    AdminResetUserPassword: async (ctx, req) => {
      const pool = await cognito.getUserPool(ctx, String(req.UserPoolId));
      const user = await existingUser(ctx, pool, req.Username);
      if (user.Enabled === false) throw fault('NotAuthorizedException', MESSAGES.disabled);
      const email = emailOf(user);
      if (!email) throw fault('InvalidParameterException', MESSAGES.noContact);
      const code = otp();
      await messages.deliver(
        ctx,
        'ForgotPassword',
        null,
        pool.options.Id,
        user,
        code,
        req.ClientMetadata as Record<string, string> | undefined,
        byEmail(email),
      );
      await pool.saveUser(ctx, {
        ...user,
        UserStatus: 'RESET_REQUIRED',
        ConfirmationCode: code,
        UserLastModifiedDate: clock.get(),
      });
      return {};
    },

    // The code went to the address, so entering it proves the address: Cognito marks an auto-verified e-mail
    // verified on confirmation (its PostConfirmation trigger sees it so); cognito-local leaves it unverified, and a
    // newcomer's account page offered to verify it once more.
    ConfirmSignUp: async (ctx, req) => {
      const pool = await cognito.getUserPoolForClientId(ctx, String(req.ClientId));
      const user = typeof req.Username === 'string' ? await pool.getUserByUsername(ctx, req.Username) : null;
      const proves =
        user?.UserStatus === 'UNCONFIRMED' &&
        user.ConfirmationCode !== undefined &&
        user.ConfirmationCode === req.ConfirmationCode &&
        emailOf(user) !== undefined &&
        (pool.options.AutoVerifiedAttributes ?? []).includes('email');
      if (proves) {
        await pool.saveUser(ctx, {
          ...user,
          Attributes: [
            ...user.Attributes.filter((a) => a.Name !== 'email_verified'),
            { Name: 'email_verified', Value: 'true' },
          ],
        });
      }
      return base('ConfirmSignUp')(ctx, req);
    },

    ResendConfirmationCode: async (ctx, req) => {
      const pool = await cognito.getUserPoolForClientId(ctx, String(req.ClientId));
      const user = typeof req.Username === 'string' ? await pool.getUserByUsername(ctx, req.Username) : null;
      // With user-existence errors prevented, an unknown user gets the answer a real one would, and no mail.
      if (!user) return { CodeDeliveryDetails: { ...byEmail(maskedEmail(String(req.Username ?? ''))) } };
      if (user.UserStatus !== 'UNCONFIRMED') throw fault('InvalidParameterException', MESSAGES.alreadyConfirmed);
      const email = emailOf(user);
      if (!email) throw fault('InvalidParameterException', MESSAGES.noContact);
      const code = otp();
      await messages.deliver(
        ctx,
        'ResendCode',
        String(req.ClientId),
        pool.options.Id,
        user,
        code,
        req.ClientMetadata as Record<string, string> | undefined,
        byEmail(email),
      );
      await pool.saveUser(ctx, { ...user, ConfirmationCode: code, UserLastModifiedDate: clock.get() });
      return { CodeDeliveryDetails: byEmail(maskedEmail(email)) };
    },

    // A pool without the advanced-security add-on keeps no auth events; the platform records its own.
    AdminListUserAuthEvents: async () => {
      throw fault('UserPoolAddOnNotEnabledException', MESSAGES.addOnNotEnabled);
    },
  };

  return (target) => {
    const route = ownValue(targets, target) ?? base(target);
    return async (ctx, req) => {
      await checkAccessToken(ctx, req);
      return route(ctx, req);
    };
  };
};
