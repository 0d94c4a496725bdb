import type { EnvName } from './environments';

export { GROUPS } from '../../shared/auth/groups';

/** The user pool as both homes create it. */
export const USER_POOL = {
  name: (env: EnvName) => `device-data-${env}-users`,
  webClientName: (env: EnvName) => `device-data-${env}-web`,
  passwordPolicy: {
    minLength: 10,
    requireLowercase: true,
    requireUppercase: true,
    requireDigits: true,
    requireSymbols: false,
  },
  /** Spec §9: sessions last 7 days; access and id tokens stay short so a revoked role ends quickly. */
  accessTokenMinutes: 60,
  idTokenMinutes: 60,
  refreshTokenDays: 7,
  usernameAttributes: ['email'] as const,
} as const;
