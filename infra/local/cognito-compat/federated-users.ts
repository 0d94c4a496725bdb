import { randomUUID } from 'node:crypto';
import type { Services } from 'cognito-local/lib/services';
import type { Context } from 'cognito-local/lib/services/context';
import type { User } from 'cognito-local/lib/services/userPoolService';
import { decideFederatedSignIn, type FederatedIdentity, federatedUsername } from './federation-rules';
import { stampOrigin } from './origin-jti';
import { type CognitoRouter, fault, MESSAGES } from './targets';

/**
 * The identity layer's own operation for a federated sign-in, composed into cognito-local's router beside the
 * compatibility targets (`targets.ts`) because it needs cognito-local's user records and token generator: cognito-local
 * issues tokens only to a password sign-in, and a federated person has no password (a linked one has one we must not
 * touch). It finds or creates the pool's user for a provider's identity, links or refuses as `decideFederatedSignIn`
 * says, and signs the user in as InitiateAuth would: the PostAuthentication trigger, the user's groups in the tokens,
 * the refresh token kept (so refresh, RevokeToken and global sign-out reach it) and `origin_jti` stamped.
 * Not reachable from outside: the layer's HTTP front refuses the target (docs/decisions/038).
 */

export const FEDERATED_SIGN_IN_TARGET = 'LocalFederatedSignIn';

type Request = Record<string, unknown>;

interface Identity {
  userId: string;
  providerName: string;
  providerType: string;
  issuer: null;
  primary: string;
  dateCreated: number;
}

const attribute = (user: User, name: string) => user.Attributes.find((a) => a.Name === name)?.Value;

/** Cognito's `identities` attribute: the providers' identities linked to the user, as a JSON array. */
const identitiesOf = (user: User): Identity[] => {
  try {
    const parsed: unknown = JSON.parse(attribute(user, 'identities') ?? '[]');
    return Array.isArray(parsed) ? (parsed as Identity[]) : [];
  } catch {
    return [];
  }
};

const withIdentity = (user: User, identity: FederatedIdentity, at: Date): User => {
  const identities: Identity[] = [
    ...identitiesOf(user).filter((i) => !(i.providerName === identity.provider && i.userId === identity.sub)),
    {
      userId: identity.sub,
      providerName: identity.provider,
      providerType: 'OIDC',
      issuer: null,
      primary: 'false',
      dateCreated: at.getTime(),
    },
  ];
  return {
    ...user,
    Attributes: [
      ...user.Attributes.filter((a) => a.Name !== 'identities'),
      { Name: 'identities', Value: JSON.stringify(identities) },
    ],
    UserLastModifiedDate: at,
  };
};

/** The provider's attributes, mapped as on every federated sign-in (email, email_verified, names). */
const mappedAttributes = (identity: FederatedIdentity) => [
  { Name: 'email', Value: identity.email },
  { Name: 'email_verified', Value: String(identity.emailVerified) },
  ...(identity.givenName ? [{ Name: 'given_name', Value: identity.givenName }] : []),
  ...(identity.familyName ? [{ Name: 'family_name', Value: identity.familyName }] : []),
];

const MAPPED = new Set(['email', 'email_verified', 'given_name', 'family_name']);

export interface FederatedSignInOptions {
  /** @default decideFederatedSignIn: the users area's linking rule with this home's trusted providers */
  decide?: typeof decideFederatedSignIn;
}

export const withFederatedSignIn = (
  base: CognitoRouter,
  services: Pick<Services, 'cognito' | 'clock' | 'tokenGenerator' | 'triggers'>,
  { decide = decideFederatedSignIn }: FederatedSignInOptions = {},
): CognitoRouter => {
  const { cognito, clock, tokenGenerator, triggers } = services;

  const signIn = async (ctx: Context, req: Request): Promise<unknown> => {
    const clientId = String(req.ClientId);
    const identity = req.Identity as FederatedIdentity;
    const pool = await cognito.getUserPoolForClientId(ctx, clientId);
    const appClient = await cognito.getAppClient(ctx, clientId);
    if (!appClient) throw fault('ResourceNotFoundException', 'User pool client does not exist.');
    const now = clock.get();
    const username = federatedUsername(identity.provider, identity.sub);
    const users = await pool.listUsers(ctx);
    const isFederated = (user: User) => user.UserStatus === 'EXTERNAL_PROVIDER';
    const linked = users.find(
      (user) =>
        !isFederated(user) &&
        identitiesOf(user).some((i) => i.providerName === identity.provider && i.userId === identity.sub),
    );

    let user: User;
    let outcome: 'linked' | 'federated' | 'created';
    if (linked) {
      // Linked before: straight to that account, whatever the e-mail says now.
      user = linked;
      outcome = 'linked';
    } else {
      const existing = users.find((u) => u.Username === username);
      if (existing) {
        // As Cognito does at each federated sign-in: the mapped attributes are the provider's again.
        user = {
          ...existing,
          Attributes: [...existing.Attributes.filter((a) => !MAPPED.has(a.Name)), ...mappedAttributes(identity)],
          UserLastModifiedDate: now,
        };
        await pool.saveUser(ctx, user);
        outcome = 'federated';
      } else {
        const holders = users
          .filter((u) => attribute(u, 'email')?.toLowerCase() === identity.email.toLowerCase())
          .map((u) => ({
            username: u.Username,
            email: attribute(u, 'email') ?? '',
            federated: isFederated(u),
            confirmed: u.UserStatus === 'CONFIRMED' && attribute(u, 'email_verified') === 'true',
          }));
        const decision = decide(identity, holders);
        if (decision.kind === 'refuse') return { Refused: { Message: decision.message } };
        if (decision.kind === 'link') {
          const target = users.find((u) => u.Username === decision.to);
          if (!target) throw fault('UserNotFoundException', MESSAGES.userNotFound);
          user = withIdentity(target, identity, now);
          await pool.saveUser(ctx, user);
          outcome = 'linked';
        } else {
          user = withIdentity(
            {
              Username: username,
              // A federated user has no password: nothing signs in with one.
              Password: '',
              UserStatus: 'EXTERNAL_PROVIDER',
              Enabled: true,
              Attributes: [{ Name: 'sub', Value: randomUUID() }, ...mappedAttributes(identity)],
              UserCreateDate: now,
              UserLastModifiedDate: now,
              RefreshTokens: [],
            },
            identity,
            now,
          );
          await pool.saveUser(ctx, user);
          // The platform record and the sign-up event, as a confirmed sign-up gets them.
          if (triggers.enabled('PostConfirmation')) {
            await triggers.postConfirmation(ctx, {
              source: 'PostConfirmation_ConfirmSignUp',
              clientId,
              userAttributes: user.Attributes,
              username: user.Username,
              userPoolId: pool.options.Id,
            });
          }
          outcome = 'created';
        }
      }
    }

    if (user.Enabled === false) throw fault('NotAuthorizedException', MESSAGES.disabled);
    if (triggers.enabled('PostAuthentication')) {
      await triggers.postAuthentication(ctx, {
        source: 'PostAuthentication_Authentication',
        clientId,
        clientMetadata: undefined,
        userAttributes: user.Attributes,
        username: user.Username,
        userPoolId: pool.options.Id,
      });
    }
    const groups = await pool.listUserGroupMembership(ctx, user);
    const tokens = await tokenGenerator.generate(ctx, user, groups, appClient, undefined, 'HostedAuth');
    // Read again: the trigger may have changed the record, and the refresh token is kept on the latest one.
    const current = (await pool.getUserByUsername(ctx, user.Username)) ?? user;
    await pool.storeRefreshToken(ctx, tokens.RefreshToken, current);
    return { ...stampOrigin({ AuthenticationResult: tokens }), Username: user.Username, Outcome: outcome };
  };

  return (target) => (target === FEDERATED_SIGN_IN_TARGET ? signIn : base(target));
};
