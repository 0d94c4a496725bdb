import { randomBytes } from 'node:crypto';
import {
  type ExistingAccount as DomainAccount,
  decideFederatedSignUp,
  type LinkingDecision,
} from '../../../functions/users/domain/federated-linking';
import { DEMO_IDENTITY_PROVIDER } from '../../../shared/auth/demo-identity-provider';
import type { AuthorizeParams } from './hosted-rules';

/** A pool account holding the e-mail a provider asserted. */
export type ExistingAccount = DomainAccount & { email: string };

/**
 * The pure rules of federation through the local identity layer (docs/decisions/038-local-demo-identity-provider.md):
 * which providers are enabled and trusted for linking, what a federated user is called, what a provider's claims
 * become, whether a federated person is created, linked or refused, and the sign-ins in flight at a provider.
 */

/** The identity providers the local web client may name in `identity_provider` (besides `COGNITO`). */
export const ENABLED_PROVIDERS: readonly string[] = [DEMO_IDENTITY_PROVIDER.name];

/**
 * The providers whose verified e-mail is enough to sign a person into the platform account of that e-mail. The one
 * place that says so locally: the demo organization's provider is trusted (it is ours, and the demo needs the link).
 */
export const TRUSTED_FOR_LINKING: ReadonlySet<string> = new Set([DEMO_IDENTITY_PROVIDER.name]);

/** Cognito names a federated user `{ProviderName}_{sub}`. */
export const federatedUsername = (provider: string, sub: string) => `${provider}_${sub}`;

/** What a provider asserted about the person, read from its verified ID token. */
export interface FederatedIdentity {
  provider: string;
  sub: string;
  email: string;
  emailVerified: boolean;
  givenName?: string;
  familyName?: string;
}

/** The ID token's claims as the identity: undefined without a subject or an e-mail (the pool signs in by e-mail). */
export const identityOf = (provider: string, claims: Record<string, unknown>): FederatedIdentity | undefined => {
  const { sub, email, email_verified: verified, given_name: givenName, family_name: familyName } = claims;
  if (typeof sub !== 'string' || !sub || typeof email !== 'string' || !email) return undefined;
  return {
    provider,
    sub,
    email: email.toLowerCase(),
    // Some providers send the boolean as a string, as Cognito itself does.
    emailVerified: verified === true || verified === 'true',
    ...(typeof givenName === 'string' ? { givenName } : {}),
    ...(typeof familyName === 'string' ? { familyName } : {}),
  };
};

/**
 * The users area's linking rule (functions/users/domain/federated-linking.ts, decision 037), the one the cloud's
 * PreSignUp trigger applies: the local layer decides with the same function, over the pool's accounts of the
 * asserted e-mail, with the providers this home trusts for linking.
 */
export const decideFederatedSignIn = (
  identity: Pick<FederatedIdentity, 'provider' | 'sub' | 'email' | 'emailVerified'>,
  accounts: readonly ExistingAccount[],
  trusted: ReadonlySet<string> = TRUSTED_FOR_LINKING,
): LinkingDecision =>
  decideFederatedSignUp(
    {
      userName: federatedUsername(identity.provider, identity.sub),
      attributes: { email: identity.email, email_verified: identity.emailVerified },
    },
    accounts,
    [...trusted],
  );

/** A sign-in sent to a provider: the web client's authorize request and what the layer sent with it. */
export interface PendingFederation {
  provider: string;
  params: AuthorizeParams;
  nonce: string;
  codeVerifier: string;
}

/** Long enough to type a password at the provider, short enough that a stray state is soon worthless. */
export const FEDERATION_TTL_MS = 10 * 60_000;

/**
 * The sign-ins in flight at providers, by the `state` the layer sent (256 random bits): single use, `ttlMs` long.
 * In memory: a restart forgets them, and the person starts again from the app.
 */
export const createPendingFederations = ({
  ttlMs = FEDERATION_TTL_MS,
  now = Date.now,
}: {
  ttlMs?: number;
  now?: () => number;
} = {}) => {
  const pending = new Map<string, PendingFederation & { expiresAt: number }>();
  return {
    start: (entry: PendingFederation): string => {
      for (const [state, old] of pending) if (old.expiresAt <= now()) pending.delete(state);
      const state = randomBytes(32).toString('base64url');
      pending.set(state, { ...entry, expiresAt: now() + ttlMs });
      return state;
    },
    /** The sign-in of this state, once: gone after this call, whether it was still good or not. */
    take: (state: string): PendingFederation | undefined => {
      const entry = pending.get(state);
      pending.delete(state);
      if (!entry || entry.expiresAt <= now()) return undefined;
      const { expiresAt: _, ...rest } = entry;
      return rest;
    },
    size: () => pending.size,
  };
};
