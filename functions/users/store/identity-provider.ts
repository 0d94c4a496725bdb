import {
  AdminAddUserToGroupCommand,
  AdminDeleteUserAttributesCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminListUserAuthEventsCommand,
  AdminRemoveUserFromGroupCommand,
  AdminResetUserPasswordCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  type AttributeType,
  type AuthEventType,
  type CognitoIdentityProviderClient,
  GetGroupCommand,
  type GroupType,
  ListGroupsCommand,
  ListUsersCommand,
  ListUsersInGroupCommand,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { type AuthEvent, type Group, type IdentityUser, UserStatus } from '../../../shared/contracts/users';
import { MESSAGES } from '../../../shared/messages';
import { BadRequest, NotFound, ServiceUnavailable } from '../../_shared/errors';
import { AUTH_EVENTS_UNAVAILABLE, type IdentityProvider, type NameChange, type Page } from '../domain/ports';
import { quote } from './cognito-filter';

/** Cognito's largest page for ListUsers (60) and ListUsersInGroup / ListGroups (60). */
const MAX_USERS_PAGE = 60;
const MAX_EVENTS_PAGE = 60;

const isNamed = (error: unknown, ...names: string[]): boolean => error instanceof Error && names.includes(error.name);

const millis = (date: Date | undefined): number => (date ? date.getTime() : 0);

const attribute = (attributes: AttributeType[] | undefined, name: string): string | undefined =>
  attributes?.find((a) => a.Name === name)?.Value || undefined;

const STATUSES = new Set<string>(UserStatus.options);

const toUser = (
  user: {
    Username?: string;
    Attributes?: AttributeType[];
    UserStatus?: string;
    Enabled?: boolean;
    UserCreateDate?: Date;
    UserLastModifiedDate?: Date;
  },
  extra: { groups?: string[]; mfa?: string[] } = {},
): IdentityUser => {
  const attributes = user.Attributes;
  const email = attribute(attributes, 'email');
  const givenName = attribute(attributes, 'given_name');
  const familyName = attribute(attributes, 'family_name');
  const displayName = attribute(attributes, 'name');
  return {
    id: user.Username ?? '',
    ...(email ? { email } : {}),
    emailVerified: attribute(attributes, 'email_verified') === 'true',
    ...(givenName ? { givenName } : {}),
    ...(familyName ? { familyName } : {}),
    ...(displayName ? { displayName } : {}),
    status: (STATUSES.has(user.UserStatus ?? '') ? user.UserStatus : 'UNKNOWN') as IdentityUser['status'],
    enabled: user.Enabled !== false,
    created: millis(user.UserCreateDate),
    updated: millis(user.UserLastModifiedDate),
    ...extra,
  };
};

const toGroup = (group: GroupType): Group => ({
  GroupName: group.GroupName ?? '',
  Precedence: group.Precedence ?? 0,
  ...(group.Description ? { Description: group.Description } : {}),
});

const EVENT_TYPES = new Set<string>(['SignIn', 'SignUp', 'ForgotPassword', 'PasswordChange', 'ResendCode']);
const EVENT_RESPONSES = new Set<string>(['Pass', 'Fail', 'InProgress']);

const toAuthEvent = (event: AuthEventType): AuthEvent => ({
  id: event.EventId ?? '',
  type: (EVENT_TYPES.has(event.EventType ?? '') ? event.EventType : 'SignIn') as AuthEvent['type'],
  time: millis(event.CreationDate),
  response: (EVENT_RESPONSES.has(event.EventResponse ?? '') ? event.EventResponse : 'Fail') as AuthEvent['response'],
  source: 'identity-provider',
  ...(event.EventRisk?.RiskLevel ? { detail: `risk ${event.EventRisk.RiskLevel}` } : {}),
});

/**
 * The user pool (Cognito; cognito-local behind the compatibility layer locally): the only code that calls the
 * identity provider. Its refusals become typed errors: an unknown user is "missing" (spec §5), a bad page
 * token is the client's 400, throttling a 503; nothing else of Cognito's wording reaches a client.
 */
export const createIdentityProvider = ({
  cognito,
  userPoolId,
}: {
  cognito: CognitoIdentityProviderClient;
  userPoolId: string;
}): IdentityProvider => {
  /** Runs one call, naming the user a missing-user refusal is about. */
  const call = async <T>(run: () => Promise<T>, subject?: { user?: string; group?: string; paged?: boolean }) => {
    try {
      return await run();
    } catch (error) {
      if (subject?.user && isNamed(error, 'UserNotFoundException'))
        throw new NotFound(MESSAGES.userMissing(subject.user));
      if (subject?.group && isNamed(error, 'ResourceNotFoundException')) {
        throw new NotFound(MESSAGES.groupMissing(subject.group));
      }
      if (subject?.paged && isNamed(error, 'InvalidParameterException')) throw new BadRequest(MESSAGES.invalidCursor);
      if (isNamed(error, 'TooManyRequestsException', 'LimitExceededException')) {
        throw new ServiceUnavailable(MESSAGES.identityProviderBusy);
      }
      throw error;
    }
  };

  const pageSize = (limit: number, max: number) => Math.max(1, Math.min(limit, max));

  const listUsersPage = async ({
    limit,
    cursor,
    filter,
  }: {
    limit: number;
    cursor?: string;
    filter?: string;
  }): Promise<Page<IdentityUser>> => {
    const result = await call(
      () =>
        cognito.send(
          new ListUsersCommand({
            UserPoolId: userPoolId,
            Limit: pageSize(limit, MAX_USERS_PAGE),
            ...(cursor ? { PaginationToken: cursor } : {}),
            ...(filter ? { Filter: filter } : {}),
          }),
        ),
      { paged: true },
    );
    return {
      items: (result.Users ?? []).map((u: UserType) => toUser(u)),
      ...(result.PaginationToken ? { nextCursor: result.PaginationToken } : {}),
    };
  };

  return {
    listGroups: async (): Promise<Group[]> => {
      const groups: Group[] = [];
      let token: string | undefined;
      do {
        const result = await call(() =>
          cognito.send(new ListGroupsCommand({ UserPoolId: userPoolId, Limit: 60, NextToken: token })),
        );
        groups.push(...(result.Groups ?? []).map(toGroup));
        token = result.NextToken;
      } while (token);
      return groups;
    },

    getGroup: async (name: string): Promise<Group> => {
      const result = await call(() => cognito.send(new GetGroupCommand({ UserPoolId: userPoolId, GroupName: name })), {
        group: name,
      });
      return toGroup(result.Group ?? {});
    },

    listUsers: ({ limit, cursor, emailPrefix }: { limit: number; cursor?: string; emailPrefix?: string }) =>
      listUsersPage({ limit, cursor, ...(emailPrefix ? { filter: `email ^= ${quote(emailPrefix)}` } : {}) }),

    listAllUsers: async (): Promise<IdentityUser[]> => {
      const users: IdentityUser[] = [];
      let cursor: string | undefined;
      do {
        const page = await listUsersPage({ limit: MAX_USERS_PAGE, cursor });
        users.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      return users;
    },

    listUsersInGroup: async (
      group: string,
      { limit, cursor }: { limit: number; cursor?: string },
    ): Promise<Page<IdentityUser>> => {
      const result = await call(
        () =>
          cognito.send(
            new ListUsersInGroupCommand({
              UserPoolId: userPoolId,
              GroupName: group,
              Limit: pageSize(limit, MAX_USERS_PAGE),
              ...(cursor ? { NextToken: cursor } : {}),
            }),
          ),
        { group, paged: true },
      );
      return {
        items: (result.Users ?? []).map((u) => toUser(u)),
        ...(result.NextToken ? { nextCursor: result.NextToken } : {}),
      };
    },

    listAllUsersInGroup: async (group: string): Promise<IdentityUser[]> => {
      const users: IdentityUser[] = [];
      let token: string | undefined;
      do {
        const result = await call(
          () =>
            cognito.send(
              new ListUsersInGroupCommand({ UserPoolId: userPoolId, GroupName: group, Limit: 60, NextToken: token }),
            ),
          { group },
        );
        users.push(...(result.Users ?? []).map((u) => toUser(u)));
        token = result.NextToken;
      } while (token);
      return users;
    },

    getUser: async (name: string): Promise<IdentityUser> => {
      const [user, groups] = await Promise.all([
        call(() => cognito.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: name })), { user: name }),
        call(() => listGroupsOf(name), { user: name }),
      ]);
      return toUser(
        { ...user, Attributes: user.UserAttributes },
        { groups: groups.map((g) => g.GroupName), mfa: user.UserMFASettingList ?? [] },
      );
    },

    listGroupsForUser: (name: string): Promise<Group[]> => call(() => listGroupsOf(name), { user: name }),

    addUserToGroup: async (name: string, group: string): Promise<void> => {
      await call(
        () =>
          cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: name, GroupName: group })),
        { user: name, group },
      );
    },

    removeUserFromGroup: async (name: string, group: string): Promise<void> => {
      await call(
        () =>
          cognito.send(
            new AdminRemoveUserFromGroupCommand({ UserPoolId: userPoolId, Username: name, GroupName: group }),
          ),
        { user: name, group },
      );
    },

    setEnabled: async (name: string, enabled: boolean): Promise<void> => {
      await call(
        () =>
          cognito.send(
            enabled
              ? new AdminEnableUserCommand({ UserPoolId: userPoolId, Username: name })
              : new AdminDisableUserCommand({ UserPoolId: userPoolId, Username: name }),
          ),
        { user: name },
      );
    },

    deleteUser: async (name: string): Promise<void> => {
      try {
        await call(() => cognito.send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: name })));
      } catch (error) {
        if (!isNamed(error, 'UserNotFoundException')) throw error;
      }
    },

    globalSignOut: async (name: string): Promise<void> => {
      await call(() => cognito.send(new AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: name })), {
        user: name,
      });
    },

    resetPassword: async (name: string): Promise<void> => {
      await call(() => cognito.send(new AdminResetUserPasswordCommand({ UserPoolId: userPoolId, Username: name })), {
        user: name,
      });
    },

    setPassword: async (name: string, password: string, permanent: boolean): Promise<void> => {
      await call(
        () =>
          cognito.send(
            new AdminSetUserPasswordCommand({
              UserPoolId: userPoolId,
              Username: name,
              Password: password,
              Permanent: permanent,
            }),
          ),
        { user: name },
      );
    },

    updateNames: async (name: string, change: NameChange): Promise<void> => {
      const named = [
        ['given_name', change.givenName],
        ['family_name', change.familyName],
        ['name', change.displayName],
      ] as const;
      const set = named.filter(([, v]) => v).map(([Name, Value]) => ({ Name, Value: Value! }));
      const removed = named.filter(([, v]) => v === '').map(([n]) => n);
      if (set.length) {
        await call(
          () =>
            cognito.send(
              new AdminUpdateUserAttributesCommand({ UserPoolId: userPoolId, Username: name, UserAttributes: set }),
            ),
          { user: name },
        );
      }
      if (removed.length) {
        await call(
          () =>
            cognito.send(
              new AdminDeleteUserAttributesCommand({
                UserPoolId: userPoolId,
                Username: name,
                UserAttributeNames: removed,
              }),
            ),
          { user: name },
        );
      }
    },

    listAuthEvents: async (
      name: string,
      { limit, cursor }: { limit: number; cursor?: string },
    ): Promise<Page<AuthEvent> | typeof AUTH_EVENTS_UNAVAILABLE> => {
      try {
        const result = await call(
          () =>
            cognito.send(
              new AdminListUserAuthEventsCommand({
                UserPoolId: userPoolId,
                Username: name,
                MaxResults: pageSize(limit, MAX_EVENTS_PAGE),
                ...(cursor ? { NextToken: cursor } : {}),
              }),
            ),
          { user: name, paged: true },
        );
        return {
          items: (result.AuthEvents ?? []).map(toAuthEvent),
          ...(result.NextToken ? { nextCursor: result.NextToken } : {}),
        };
      } catch (error) {
        if (isNamed(error, 'UserPoolAddOnNotEnabledException')) return AUTH_EVENTS_UNAVAILABLE;
        throw error;
      }
    },
  };

  async function listGroupsOf(name: string): Promise<Group[]> {
    const groups: Group[] = [];
    let token: string | undefined;
    do {
      const result = await cognito.send(
        new AdminListGroupsForUserCommand({ UserPoolId: userPoolId, Username: name, Limit: 60, NextToken: token }),
      );
      groups.push(...(result.Groups ?? []).map(toGroup));
      token = result.NextToken;
    } while (token);
    return groups;
  }
};
