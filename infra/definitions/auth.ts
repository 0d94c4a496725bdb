import { PASSWORD_POLICY } from '../../shared/auth/password-policy';
import { DEVELOPER_ENVIRONMENTS, type EnvName, LOCAL_WEB_ORIGIN } from './environments';

export { GROUPS } from '../../shared/auth/groups';

/** The user pool as both homes create it. */
export const USER_POOL = {
  name: (env: EnvName) => `device-data-${env}-users`,
  webClientName: (env: EnvName) => `device-data-${env}-web`,
  passwordPolicy: PASSWORD_POLICY,
  /** Spec §9: sessions last 7 days; access and id tokens stay short so a revoked role ends quickly. */
  accessTokenMinutes: 60,
  idTokenMinutes: 60,
  refreshTokenDays: 7,
  usernameAttributes: ['email'] as const,
} as const;

/**
 * The pool's device tracking as both homes set it from the environment's rule: every browser is tracked, remembered
 * only when the person asks, and a remembered one skips the second factor only where the environment allows it.
 */
export const deviceConfigurationOf = (rememberedDevices: { skipSecondFactor: boolean }) => ({
  challengeRequiredOnNewDevice: rememberedDevices.skipSecondFactor,
  deviceOnlyRememberedOnUserPrompt: true,
});

/**
 * The web origins the hosted sign-in may send the browser back to (its callback and sign-out URLs come from
 * `hostedUrlsOf`): the environment's web app, and in developers' environments the local dev server as well, so a
 * front end run against the cloud can sign in too. Preview and production redirect to their own origin alone.
 */
export const hostedSignInOrigins = (env: EnvName, webOrigin: string): string[] => [
  webOrigin,
  ...(DEVELOPER_ENVIRONMENTS.includes(env) ? [LOCAL_WEB_ORIGIN] : []),
];
