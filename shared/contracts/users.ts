import * as z from 'zod';
import { GROUP_NAMES } from '../auth/groups';
import { MESSAGES } from '../messages';
import { OptionalSafeText, SafeText } from '../text/sanitize';
import { EpochMillis, PageQuery, page } from './common';
import { defineArea, defineRoute, guest, minGroup, signedIn } from './define-route';
import { CartItem, UserId } from './shapes';

export { CartItem, UserId };

export const GroupName = z.enum(GROUP_NAMES, { error: () => `Group must be one of: ${GROUP_NAMES.join(', ')}` });

export const Email = z.string().trim().toLowerCase().email('Must be an e-mail address').max(254);

export const Group = z.object({
  GroupName: z.string(),
  Precedence: z.number().int(),
  Description: z.string().optional(),
});
export type Group = z.infer<typeof Group>;

/** The identity provider's states (Cognito's UserStatus). */
export const UserStatus = z.enum([
  'UNCONFIRMED',
  'CONFIRMED',
  'ARCHIVED',
  'COMPROMISED',
  'UNKNOWN',
  'RESET_REQUIRED',
  'FORCE_CHANGE_PASSWORD',
  'EXTERNAL_PROVIDER',
]);

/** A person as the identity provider holds them (GET /user/{name}, GET /users/). */
export const IdentityUser = z.object({
  id: z.string(),
  email: z.string().optional(),
  emailVerified: z.boolean(),
  givenName: z.string().optional(),
  familyName: z.string().optional(),
  displayName: z.string().optional(),
  status: UserStatus,
  enabled: z.boolean(),
  created: EpochMillis,
  updated: EpochMillis,
  /** Only on single-user reads: they cost one more call per user. */
  groups: z.array(z.string()).optional(),
  mfa: z.array(z.string()).optional(),
});
export type IdentityUser = z.infer<typeof IdentityUser>;

/** A person's cart as the cart routes answer it: the items after the change, in the order they were added. */
export const Cart = z.object({ items: z.array(CartItem) });
export type Cart = z.infer<typeof Cart>;

const CartItemParams = z.object({
  id: UserId,
  productId: CartItem.shape.productId,
  deviceId: CartItem.shape.deviceId,
});

const DeletionRequest = z.object({
  /** When the deletion was asked for; it happens 2 to 4 weeks later (spec §4, §9). */
  time: EpochMillis.optional(),
  selfRequested: z.boolean().optional(),
  /** Who asked: the user's own id, or the staff member's. */
  requester: z.string().optional(),
});

/** Spec §3: a history entry is the earlier queue data plus who unqueued it and when. */
export const DeletionHistoryEntry = DeletionRequest.extend({
  unqueuedBy: z.object({ requester: z.string(), time: EpochMillis }),
});

export const DeletionQueued = DeletionRequest.extend({ history: z.array(DeletionHistoryEntry) });
export type DeletionQueued = z.infer<typeof DeletionQueued>;

/** Spec §3 User: the platform's own record of a person (GET /user-ddb/{name}). */
export const UserRecord = z.object({
  id: z.string(),
  displayName: z.string().optional(),
  givenName: z.string().optional(),
  familyName: z.string().optional(),
  metadata: z.object({ email: z.string(), deletionQueued: DeletionQueued.optional() }).optional(),
  /** The billing customer id; looked up from the e-mail when missing (spec §3). */
  subscriptionId: z.string().optional(),
  cartItems: z.array(CartItem),
  /** The user's groups as last seen by the platform. */
  rolesList: z.array(z.string()),
  created: EpochMillis,
  updated: EpochMillis,
  /** When the web app last refreshed its local copy (spec §9: stale after 7 days). */
  localCacheTime: EpochMillis.optional(),
});
export type UserRecord = z.infer<typeof UserRecord>;

export const AuthEvent = z.object({
  id: z.string(),
  /** Cognito's event types (ResendCode included), plus SignOut, which only the platform records. */
  type: z.enum(['SignIn', 'SignUp', 'ForgotPassword', 'PasswordChange', 'ResendCode', 'SignOut']),
  time: EpochMillis,
  /** As Cognito reports it: Pass, Fail, or InProgress (a sign-in waiting on its second factor). */
  response: z.enum(['Pass', 'Fail', 'InProgress']),
  /** Where the event came from: the identity provider's own log, or the platform's (see docs/users.md). */
  source: z.enum(['identity-provider', 'platform']),
  detail: z.string().optional(),
});
export type AuthEvent = z.infer<typeof AuthEvent>;

export const INVITE_TYPES = [
  'inviter-contact',
  'device-user',
  'organization-user',
  'organization-participant',
  'campaign-user',
  'campaign-participant',
] as const;
export const InviteType = z.enum(INVITE_TYPES, { error: () => `Type must be one of: ${INVITE_TYPES.join(', ')}` });

export const InviteStatus = z.enum(['pending', 'accepted', 'declined']);

/** Spec §3 Invite, plus what an invite to an organization or campaign needs and its progress. */
export const Invite = z.object({
  id: z.string(),
  type: InviteType,
  inviterId: z.string(),
  inviterName: z.string(),
  invited: z.object({ email: z.string(), name: z.string().optional() }),
  message: z.string().optional(),
  /** The organization or campaign a membership invite is for; absent for inviter-contact. */
  objectId: z.string().optional(),
  status: InviteStatus,
  created: EpochMillis,
  updated: EpochMillis,
  /** Set when accepted: the invited person's user id. */
  acceptedBy: z.string().optional(),
});
export type Invite = z.infer<typeof Invite>;

/** How many people one names request may ask about: a screen's worth (docs/users.md "Names and e-mails"). */
export const PEOPLE_NAMES_MAX = 100;

/**
 * One whole e-mail address, the only way a person who is not staff reaches someone else (the picker): prefixes,
 * wildcards and lists are refused, so the directory cannot be listed through it.
 */
export const ExactEmail = z
  .string()
  .trim()
  .max(254)
  .refine((text) => !/[*%?,;\s]/.test(text), MESSAGES.exactEmailOnly)
  .pipe(Email.refine((email) => /@[^@]+\.[^@.]+$/.test(email), MESSAGES.exactEmailOnly));

/**
 * A person as another person may see them: their display name, and their e-mail only where the viewer may see it
 * (docs/users.md "Names and e-mails"). `name` is absent when the person set none. `signsInWith` is how they sign in,
 * as people read it ("E-mail and password", an identity provider's label), only for themself, staff and the managers
 * of an organization they belong to (issue 21).
 */
export const PersonName = z.object({
  id: z.string(),
  name: z.string().optional(),
  email: z.string().optional(),
  signsInWith: z.array(z.string()).optional(),
});
export type PersonName = z.infer<typeof PersonName>;

const IdParams = z.object({ id: UserId });
const InviteIdParams = z.object({ id: z.string().trim().uuid('Invite id must be a UUID') });
const ActorParams = z.object({ id: UserId, group: GroupName, actor: UserId });

const Done = z.object({ id: z.string(), done: z.literal(true) });

export const EmailMessage = z
  .object({
    toAddresses: z.array(Email).min(1, 'At least one recipient').max(50, 'At most 50 recipients'),
    subject: SafeText('Subject', 200),
    textMessage: z.string().max(20_000).optional(),
    htmlMessage: z.string().max(100_000).optional(),
  })
  .refine((m) => Boolean(m.textMessage?.trim() || m.htmlMessage?.trim()), 'A text or HTML message is required');

const UserFilters = z
  .object({
    email: z.string().trim().toLowerCase().max(254).optional(),
    /** Only records with (true) or without (false) a queued deletion. */
    deletionQueued: z.boolean().optional(),
    role: GroupName.optional(),
  })
  .strict();

/** The ids of POST /users-ddb-with-batch-get. */
const BatchGetIds = z.array(UserId).min(1, 'At least one id').max(100, 'At most 100 ids');

export const users = defineArea('users', {
  backupUserPool: defineRoute({
    method: 'PUT',
    path: '/backupUserPool/',
    access: minGroup('Administrators'),
    summary: "Export every user and group to `{directory}/` in the environment's backup bucket.",
    body: z
      .object({
        directory: z
          .string()
          .trim()
          .min(1, 'Directory cannot be empty')
          .max(200)
          .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/, 'Directory may contain only letters, digits, . _ - and /')
          .refine((d) => !d.split('/').includes('..'), 'Directory cannot contain ".."'),
      })
      .strict(),
    response: z.object({
      bucket: z.string(),
      keys: z.array(z.string()),
      users: z.number().int(),
      groups: z.number().int(),
    }),
  }),
  listGroups: defineRoute({
    method: 'GET',
    path: '/groups',
    access: signedIn,
    summary: 'Every group with its precedence (lower is a higher role).',
    response: z.object({ items: z.array(Group) }),
  }),
  getGroup: defineRoute({
    method: 'GET',
    path: '/group/{name}',
    access: signedIn,
    summary: 'One group.',
    params: z.object({ name: GroupName }),
    response: Group,
  }),
  listUsers: defineRoute({
    method: 'GET',
    path: '/users/',
    access: minGroup('Employees'),
    summary: 'People in the identity provider, paged; `search` matches the start of an e-mail.',
    query: PageQuery.extend({ search: z.string().trim().max(254).optional() }),
    response: page(IdentityUser),
  }),
  getUserRecord: defineRoute({
    method: 'GET',
    // Spec §7 writes `{name}` here and `{id}` on PUT /user-ddb/{id}: one URL, and API Gateway allows one
    // variable name per path segment, so both use `{id}` (a user id, or for staff an e-mail).
    path: '/user-ddb/{id}',
    access: signedIn,
    summary: "The platform's record of a person (self or staff); 404 when the account is missing.",
    params: IdParams,
    response: UserRecord,
  }),
  getUser: defineRoute({
    method: 'GET',
    // `{id}`, not the spec's `{name}`: see getUserRecord.
    path: '/user/{id}',
    access: signedIn,
    summary: "A person's identity (self or staff), with groups and MFA; 404 when the account is missing.",
    params: IdParams,
    response: IdentityUser,
  }),
  usersByGroups: defineRoute({
    method: 'GET',
    path: '/usersByGroups/',
    access: minGroup('Employees'),
    summary: 'The people in each group.',
    response: z.object({ groups: z.record(z.string(), z.array(IdentityUser)) }),
  }),
  usersDdbWithBatchGet: defineRoute({
    method: 'POST',
    path: '/users-ddb-with-batch-get',
    access: minGroup('Employees'),
    summary:
      'Many user records at once, by the ids in `parameters` (spec §7; `ids` is read as well); ids without a record are listed as missing.',
    body: z
      .object({ parameters: BatchGetIds.optional(), ids: BatchGetIds.optional() })
      .strict()
      .refine((body) => (body.parameters === undefined) !== (body.ids === undefined), {
        message: 'Give the user ids as `parameters` (or `ids`), one of the two',
      }),
    response: z.object({ items: z.array(UserRecord), missing: z.array(z.string()) }),
  }),
  listUserIdsFromDdb: defineRoute({
    method: 'POST',
    path: '/listUserIdsFromDdb',
    access: minGroup('Employees'),
    summary: 'User ids matching the filters, paged; `Count` is the number of ids in this page.',
    body: z
      .object({
        parameters: z
          .object({ limit: PageQuery.shape.limit, cursor: PageQuery.shape.cursor })
          .partial()
          .strict()
          .default({ limit: 50 }),
        filters: UserFilters.default({}),
      })
      .strict(),
    response: z.object({
      Items: z.array(z.object({ id: z.string() })),
      Count: z.number().int(),
      nextCursor: z.string().optional(),
    }),
  }),
  peopleNames: defineRoute({
    method: 'POST',
    path: '/people/names',
    access: signedIn,
    summary:
      'Names of people the caller shares a device, organization or campaign with (staff: all), e-mails and how they sign in where allowed; other ids are left out as unknown ones are.',
    body: z
      .object({
        ids: z.array(UserId).min(1, 'At least one id').max(PEOPLE_NAMES_MAX, `At most ${PEOPLE_NAMES_MAX} ids`),
      })
      .strict(),
    response: z.object({ people: z.array(PersonName) }),
  }),
  findPersonByEmail: defineRoute({
    method: 'POST',
    path: '/people/by-email',
    access: signedIn,
    summary:
      'One exact e-mail address, rate-limited: the person when the caller may see them already, else nothing, account or not.',
    body: z.object({ email: ExactEmail }).strict(),
    response: z.object({ person: PersonName.optional() }),
  }),
  listGroupsForUser: defineRoute({
    method: 'GET',
    path: '/listGroupsForUser/{id}',
    access: signedIn,
    summary: "A person's groups (self or staff).",
    params: IdParams,
    response: z.object({ items: z.array(Group) }),
  }),
  listUsersInGroup: defineRoute({
    method: 'GET',
    path: '/listUsersInGroup/{group}',
    access: minGroup('Employees'),
    summary: 'The people in one group, paged.',
    params: z.object({ group: GroupName }),
    query: PageQuery,
    response: page(IdentityUser),
  }),
  disableUser: defineRoute({
    method: 'GET',
    path: '/disableUser/{id}',
    access: minGroup('Employees'),
    summary: 'Disable a person: no sign-in, and their existing tokens stop working at the API at once.',
    params: IdParams,
    response: Done,
  }),
  enableUser: defineRoute({
    method: 'GET',
    path: '/enableUser/{id}',
    access: minGroup('Employees'),
    summary: 'Enable a disabled person again.',
    params: IdParams,
    response: Done,
  }),
  newUserNotice: defineRoute({
    method: 'GET',
    path: '/newUserNotice/{id}',
    access: signedIn,
    summary: 'Tell the administrators by e-mail that this person joined (self or staff); sent once per person.',
    params: IdParams,
    response: z.object({ id: z.string(), sent: z.boolean() }),
  }),
  emailUser: defineRoute({
    method: 'POST',
    path: '/emailUser',
    access: minGroup('Employees'),
    summary: 'Send an e-mail through the e-mail service.',
    body: z.object({ region: z.string().trim().max(32).optional(), email: EmailMessage }).strict(),
    response: z.object({ messageId: z.string() }),
  }),
  addUserToGroup: defineRoute({
    method: 'GET',
    path: '/addUserToGroup/{id}/{group}/{actor}',
    access: minGroup('Employees'),
    summary: 'Grant a group; `actor` must be the caller; Administrators and Employees need an Administrator.',
    params: ActorParams,
    response: Done,
  }),
  removeUserFromGroup: defineRoute({
    method: 'GET',
    path: '/removeUserFromGroup/{id}/{group}/{actor}',
    access: minGroup('Employees'),
    summary: 'Remove a group; `actor` must be the caller; Administrators and Employees need an Administrator.',
    params: ActorParams,
    response: Done,
  }),
  updateUser: defineRoute({
    method: 'PUT',
    path: '/user/{id}',
    access: signedIn,
    summary: "Change a person's names (self or staff). E-mail changes go through the identity provider's verification.",
    params: IdParams,
    body: z
      .object({
        givenName: OptionalSafeText('First name', 100).optional(),
        familyName: OptionalSafeText('Last name', 100).optional(),
        displayName: OptionalSafeText('Display name', 100).optional(),
      })
      .strict(),
    response: IdentityUser,
  }),
  updateUserRecord: defineRoute({
    method: 'PUT',
    path: '/user-ddb/{id}',
    access: signedIn,
    summary:
      "Change a person's record (self or staff): display name, cart, cache time; `deletion: 'unqueue'` (staff) cancels a queued deletion.",
    params: IdParams,
    body: z
      .object({
        displayName: OptionalSafeText('Display name', 100).optional(),
        cartItems: z.array(CartItem).max(100, 'At most 100 cart items').optional(),
        localCacheTime: EpochMillis.optional(),
        deletion: z.literal('unqueue').optional(),
      })
      .strict(),
    response: UserRecord,
  }),
  // Spec §5's cart, one atomic change of the record each (self or staff, as updateUserRecord); docs/billing.md.
  addCartItem: defineRoute({
    method: 'POST',
    path: '/user-ddb/{id}/cart',
    access: signedIn,
    summary:
      'Put an item in a person\'s cart (self or staff); a second item of the same product and device is a 409 "Item already in cart".',
    params: IdParams,
    body: CartItem.strict(),
    response: Cart,
    status: 201,
  }),
  updateCartItem: defineRoute({
    method: 'PUT',
    path: '/user-ddb/{id}/cart/{productId}/{deviceId}',
    access: signedIn,
    summary: "Change the quantity of an item in a person's cart (self or staff); 404 when it is not there.",
    params: CartItemParams,
    body: z.object({ quantity: CartItem.shape.quantity }).strict(),
    response: Cart,
  }),
  removeCartItem: defineRoute({
    method: 'DELETE',
    path: '/user-ddb/{id}/cart/{productId}/{deviceId}',
    access: signedIn,
    summary: "Take an item out of a person's cart (self or staff); 404 when it is not there.",
    params: CartItemParams,
    response: Cart,
  }),
  deleteUser: defineRoute({
    method: 'DELETE',
    path: '/deleteUser/{id}',
    access: signedIn,
    summary:
      'Queue an account for deletion (self, or staff for anyone): disables it and e-mails the person; it is deleted 2 to 4 weeks later.',
    params: IdParams,
    response: UserRecord,
  }),
  adminDeleteUser: defineRoute({
    method: 'DELETE',
    path: '/adminDeleteUser/{id}',
    access: minGroup('Administrators'),
    summary: 'Delete an account now, with everything the platform holds of the person.',
    params: IdParams,
    response: z.void(),
  }),
  adminResetUserPassword: defineRoute({
    method: 'GET',
    path: '/adminResetUserPassword/{id}',
    access: minGroup('Employees'),
    summary: 'Invalidate the password and e-mail a reset code; the person sets a new one through "forgot password".',
    params: IdParams,
    response: Done,
  }),
  forceResetPassword: defineRoute({
    method: 'GET',
    path: '/forceResetPassword/{id}',
    access: minGroup('Employees'),
    summary: 'Set a temporary password, e-mailed to the person, who must choose a new one at next sign-in.',
    params: IdParams,
    response: Done,
  }),
  adminUserGlobalSignOut: defineRoute({
    method: 'GET',
    path: '/adminUserGlobalSignOut/{id}',
    access: signedIn,
    summary: 'Sign a person out everywhere (self or staff): tokens issued before now stop working at once.',
    params: IdParams,
    response: Done,
  }),
  adminListUserAuthEvents: defineRoute({
    method: 'GET',
    path: '/adminListUserAuthEvents/{id}',
    access: signedIn,
    summary: "A person's recent sign-in events, newest first (self or staff).",
    params: IdParams,
    query: PageQuery,
    response: page(AuthEvent),
  }),
  filterUsersByFirstLast: defineRoute({
    method: 'GET',
    path: '/filterUsersByFirstLast/{first}/{last}',
    access: minGroup('Employees'),
    summary: 'People whose first and last names start with the given text (case-insensitive; "*" matches any).',
    params: z.object({
      first: z.string().trim().min(1, 'First name cannot be empty').max(100),
      last: z.string().trim().min(1, 'Last name cannot be empty').max(100),
    }),
    response: z.object({ items: z.array(IdentityUser) }),
  }),
  inviteUser: defineRoute({
    method: 'POST',
    path: '/inviteUser/',
    access: signedIn,
    summary:
      'Invite a person by e-mail (`inviterId` must be the caller); membership invites need the right to add them.',
    body: z
      .object({
        type: InviteType,
        inviterId: UserId,
        inviterName: SafeText('Inviter name', 100),
        invited: z.object({ email: Email, name: OptionalSafeText('Name', 100).optional() }).strict(),
        message: OptionalSafeText('Message', 1000).optional(),
        objectId: z.string().trim().min(1).max(128).optional(),
      })
      .strict(),
    response: Invite,
    status: 201,
  }),
  getInvite: defineRoute({
    method: 'GET',
    path: '/invite/{id}',
    access: guest,
    summary: 'One invite: its unguessable id is the link the invited person received.',
    params: InviteIdParams,
    response: Invite,
  }),
  deleteInvite: defineRoute({
    method: 'DELETE',
    path: '/deleteInvite/{id}',
    access: signedIn,
    summary: 'Withdraw an invite (the inviter or staff).',
    params: InviteIdParams,
    response: z.void(),
  }),
  listInvites: defineRoute({
    method: 'POST',
    path: '/invites',
    access: signedIn,
    summary: "Invites matching the filters, newest first; others' invites only for staff.",
    query: PageQuery,
    body: z
      .object({
        filters: z
          .object({
            inviterId: UserId.optional(),
            invitedEmail: Email.optional(),
            status: InviteStatus.optional(),
            type: InviteType.optional(),
            /** Only invites to this organization or campaign. */
            objectId: z.string().trim().min(1).max(128).optional(),
          })
          .strict()
          .default({}),
      })
      .strict()
      .default({ filters: {} }),
    response: page(Invite),
  }),
  updateInvite: defineRoute({
    method: 'PUT',
    path: '/invite/{id}',
    access: signedIn,
    summary:
      'Change an invite: the inviter edits its message or name; the invited person accepts (which creates the relation it was for) or declines.',
    params: InviteIdParams,
    body: z
      .object({
        message: OptionalSafeText('Message', 1000).optional(),
        invited: z
          .object({ name: OptionalSafeText('Name', 100).optional() })
          .strict()
          .optional(),
        status: z.enum(['accepted', 'declined']).optional(),
      })
      .strict(),
    response: Invite,
  }),
});
