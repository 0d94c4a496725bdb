/**
 * User-facing messages in one module: the spec's exact wording where it gives one (§4, §5, §8), ours
 * elsewhere. The API and the web app both read them, so a test can assert the very string a user sees.
 */
import { productLineName, tierInWords } from './text/product-words';

/** What a purpose of a device's data is called: what a tier may leave out, and what reaches back so far. */
const PURPOSE_WORDS: Record<string, { lacked: string; plural: boolean; reach: string }> = {
  view: { lacked: 'Charts', plural: true, reach: 'Charts and reads' },
  download: { lacked: 'Downloads', plural: true, reach: 'Downloads' },
  api: { lacked: 'API access', plural: false, reach: 'API reads' },
};
const purposeWords = (purpose: string) => PURPOSE_WORDS[purpose] ?? { lacked: purpose, plural: false, reach: purpose };
/** "the Free tier of AL60 devices", "Tier 2 of SD1 devices": a tier as a person reads it, never its id. */
const tierOfLine = (tier: string, line: string) => `${tierInWords(tier)} of ${productLineName(line)} devices`;

export const MESSAGES = {
  // Spec §4 / §8: account deletion.
  noDeletionQueue: 'No deletion queue found for this user account.',
  noCustomMetadata: 'No custom metadata found for this user account.',
  // Spec §8: session.
  sessionExpired: 'Session is expired. User needs to sign in again.',
  // Spec §8: identity library messages.
  usernameEmpty: 'Username cannot be empty',
  passwordEmpty: 'Password cannot be empty',
  confirmationCodeEmpty: 'Confirmation code cannot be empty',
  networkError: 'Network Error',
  noCurrentUser: 'No current user',
  noGraphqlEndpoint: 'No graphql endpoint provided',
  notAuthenticated: 'User is not authenticated',
  // Spec §8: REST client errors (the web app's area clients, frontend/src/lib/api.ts).
  apiCategoryNotConfigured: 'API category not configured',
  apiDoesNotExist: (name: string) => `API ${name} does not exist`,
  // Spec §8: the local user and groups cache (frontend/src/lib/identity-cache.ts); the states' names are its codes.
  groupsCacheError: 'Error fetching groups',
  // Spec §8: endpoint configuration errors (shared/config/endpoints.ts); the words are the AWS SDK's own.
  endpointMissingRegion: 'Invalid Configuration: Missing Region',
  endpointFipsWithCustom: 'Invalid Configuration: FIPS and custom endpoint are not supported',
  endpointDualstackWithCustom: 'Invalid Configuration: Dualstack and custom endpoint are not supported',
  endpointFipsWithDualstack: 'Invalid Configuration: FIPS and DualStack together are not supported',
  // Ours: the IoT service's errors as the API answers them (shared/iot/iot-errors.ts).
  realtimeBusy: 'The realtime service is busy; please try again shortly',
  // Ours.
  parameterNotFound: (id: string) => `Parameter not found: ${id}`,
  parameterExists: (id: string) => `Parameter already exists: ${id}`,
  invalidCursor: 'Invalid page cursor',
  // Ours: notifications (docs/notifications.md).
  notificationNotFound: (id: string) => `Notification not found: ${id}`,
  notificationNotDraft: 'A notification can be changed or deleted only while it is a draft (status created)',
  notificationContentStaffOnly: "Only staff change a notification's content",
  notificationOthersBanners: 'You may read only your own notifications',
  notificationNotQueued: 'The notification could not be queued: it was kept as a draft, try sending it again',
  topicLocked: (label: string) => `E-mail about ${label} cannot be turned off: it is about your own access`,
  unsubscribeInvalid: 'This unsubscribe link is not valid any more: choose your e-mail in your notification settings',
  // Ours: relations (docs/relations.md holds the rules these enforce).
  relationNotFound: (id: string) => `Relation not found: ${id}`,
  relationExists: (id: string) => `Relation already exists: ${id}`,
  relationSelfGrant: 'You cannot grant yourself a relation',
  relationSameEnds: 'A relation links two different ids',
  relationStaffOnly: (type: string) =>
    `Only staff can change ${type} relations; ownership changes by claiming or transfer`,
  relationManagerRequired: (kind: string) => `Only a manager of this ${kind} can change its members`,
  relationOwnerRequired: 'Only the owner of this device can change its administrators and users',
  relationDeviceManagerRequired: (kind: string) =>
    `Adding a device to a ${kind} needs a manager of the ${kind} who also owns or administers the device`,
  relationDeviceRemovalRequired: (kind: string) =>
    `Only a manager of the ${kind} or an owner or administrator of the device can remove it`,
  relationInviterOnly: 'Only the inviter can create this relation',
  relationInviterOrContact: 'Only the inviter or the contact can remove this relation',
  relationLastManager: (kind: string) => `This ${kind} needs at least one manager: add another manager first`,
  relationNotInFamily: (from: string, to: string) => `A ${from} relation cannot become ${to}`,
  accessDenied: (kind: string) => `You do not have access to this ${kind}`,
  relationReadDenied: 'You do not have access to these relations',
  relationRoleExists: (type: string) => `This person already holds ${type} here: change that role instead`,
  relationOwnerExists: 'This device already has an owner: ownership moves by transfer',
  relationChangeUndone: 'The change could not be completed and was undone; please try again',
  // Spec §5 and ours: people (docs/users.md).
  accountNameUndefined: 'The account name "undefined" is not a user',
  noUserFound: 'No user found',
  userMissing: (name: string) => `No user found: ${name} is missing`,
  accountDisabled: 'This account is disabled',
  sessionSignedOut: 'This session was signed out everywhere: sign in again',
  selfOrStaffOnly: 'Only the person themself or staff can do this',
  actorMismatch: 'The actor in the path must be you',
  staffRoleNeedsAdministrator: 'Only an Administrator can grant or remove the Administrators or Employees group',
  itemAlreadyInCart: 'Item already in cart',
  cartItemMissing: 'This item is not in the cart',
  cartFull: (max: number) => `A cart holds at most ${max} items: check out or remove some first`,
  deletionAlreadyQueued: 'A deletion is already queued for this user account.',
  deletionEmailSubject: 'Your account will be deleted',
  deletionEmailText: 'Your account is queued for deletion. It will be deleted within 2 to 4 weeks.',
  inviteNotFound: (id: string) => `Invite not found: ${id}`,
  inviteNotForYou: 'This invite was sent to another e-mail address',
  inviteNotPending: (status: string) => `This invite is already ${status}`,
  inviteObjectRequired: (type: string) => `A ${type} invite needs the id of the object it is for`,
  inviteNoObject: 'An inviter-contact invite is not for an object',
  inviteInviterOnly: 'Only the inviter or staff can change this invite',
  invitesOwnOnly: 'You can only list invites you sent or that were sent to you',
  inviteExists: (id: string) => `Invite already exists: ${id}`,
  inviteOwn: 'You cannot accept your own invite',
  exactEmailOnly: 'Enter one whole e-mail address (no wildcards, partial addresses or lists)',
  peopleLookupsTooMany: (limit: number, nextAt: number) =>
    `At most ${limit} e-mail look-ups an hour; the next one can be made at ${new Date(nextAt).toISOString().slice(11, 16)} UTC`,
  inviteNoLongerGrantable: (kind: string) => `The inviter can no longer add members to this ${kind}`,
  inviteEmailSubject: (inviterName: string) => `${inviterName} invited you`,
  inviteEmailText: (inviterName: string, link: string, message?: string) =>
    `${inviterName} invited you to join them on the device-data platform.${message ? `\n\n${message}` : ''}\n\nOpen the invite: ${link}`,
  unqueueStaffOnly: 'Only staff can cancel a queued deletion',
  recordChanged: 'This was changed by someone else at the same time; please try again',
  changeUndone: 'The change could not be completed and was undone; please try again',
  // Ours: e-mail (functions/_shared/mail).
  mailNoRecipient: 'An e-mail needs at least one recipient',
  mailNoBody: 'An e-mail needs a text or HTML body',
  mailRejected: 'The e-mail service refused this message: check the addresses and the content',
  mailNotSent: 'The e-mail could not be sent; please try again later',
  // Ours: people (docs/users.md).
  groupMissing: (name: string) => `No group found: ${name}`,
  identityProviderBusy: 'The identity service is busy; please try again shortly',
  cannotDisableSelf: 'You cannot disable your own account',
  administratorNeedsAdministrator: "Only an Administrator can change another Administrator's account",
  roleChangeUndone: 'The role change could not be completed and was undone; please try again',
  personChanged: 'This person was changed by someone else at the same time; please try again',
  noEmailAddress: (id: string) => `No e-mail address is known for ${id}`,
  newUserNoticeSubject: (who: string) => `New user: ${who}`,
  newUserNoticeText: (who: string, link: string) => `${who} joined the device-data platform.\n\nTheir page: ${link}`,
  temporaryPasswordSubject: 'Your temporary password',
  temporaryPasswordText: (password: string, link: string) =>
    `Your password was reset by our staff. Sign in with this temporary password and choose a new one:\n\n${password}\n\n${link}`,
  // Ours: organizations (docs/organizations.md).
  organizationNotFound: (id: string) => `Organization not found: ${id}`,
  organizationLogoType: 'A logo must be a PNG, JPEG or WebP image',
  organizationLogoTooLarge: 'A logo is at most 1 MB',
  organizationLogoEmpty: 'A logo file cannot be empty',
  organizationLogoKey: 'This is not an upload for this organization: ask for a new upload URL',
  organizationLogoMissing: 'The uploaded file was not found: upload it again with a new upload URL',
  organizationLogoMismatch: (declared: string) =>
    `The uploaded file is not a ${declared} image: its content does not match; it was deleted`,
  organizationLogoOversized: 'The uploaded file is larger than 1 MB; it was deleted',
  organizationNoLogo: 'This organization has no logo',
  // Ours: devices (docs/devices.md).
  // Ours: sensor data and tiers (docs/sensor-data.md).
  // Ours: the tier-features table administrators edit (docs/sensor-data.md, "Tier features as data").
  tierFeatureDays: (at: string, feature: string, max: number, orNone: boolean) =>
    `${at}: ${feature} must be a whole number from 0 to ${max}${orNone ? ', or null for no downloads' : ''}`,
  tierFeatureRequests: (at: string) => `${at}: API requests a month must be a whole number, 0 or more`,
  tierFeatureFlag: (at: string) => `${at}: API access must be true or false`,
  tierFeatureNoApi: (at: string) => `${at}: API requests a month must be 0 without API access`,
  tierFeatureMissing: (at: string) => `${at} is missing: every product line needs each of its tiers`,
  tierFeatureUnknown: (at: string, keys: string[]) =>
    `${at}: ${keys.join(', ')} ${keys.length === 1 ? 'is' : 'are'} not part of the table (lines and tiers are fixed)`,
  tierFeatureLess: (line: string, higher: string, lower: string, feature: string, was: string, is: string) =>
    `${line} ${higher}: ${feature} (${is}) is less than ${lower}'s (${was}); a higher tier never gives less than a lower one`,
  tierFeaturesNotTable: 'The tier table must be an object with each product line (sd1, al30, al60, al80)',
  tierFeaturesStoredInvalid: 'The stored tier-features parameter is invalid: the default table applies',
  tierLacksPurpose: (purpose: string, tier: string, line: string, unlock?: string) => {
    const { lacked, plural } = purposeWords(purpose);
    const them = plural ? 'them' : 'it';
    return (
      `${lacked} ${plural ? 'are' : 'is'} not included in ${tierOfLine(tier, line)}` +
      (unlock ? `; ${unlock} unlocks ${them}` : `; no tier of ${productLineName(line)} devices offers ${them}`)
    );
  },
  outsideTierWindow: (purpose: string, tier: string, days: number, line: string, unlock?: string) =>
    `${purposeWords(purpose).reach} of this device reach back ${days} days on ${tierOfLine(tier, line)}` +
    (unlock ? `; ${unlock} unlocks older data` : `; no tier of ${productLineName(line)} devices reaches that far back`),
  deviceNotFound: (id: string) => `Device not found: ${id}`,
  deviceSerialRegistered: (serial: string) => `A device with serial ${serial} is already registered`,
  deviceClaimRefused: 'This serial and claim code do not match a device that can be claimed',
  deviceAlreadyClaimed: 'This device has already been claimed: ask its owner to transfer it',
  deviceRetired: 'This device is retired',
  deviceRetiredChange: 'This device is retired: only staff can change it',
  deviceAlreadyRetired: 'This device is already retired',
  deviceNotClaimed: 'This device has no owner yet: it is claimed with the code on its label',
  deviceOwnerOnly: 'Only the owner of this device or staff can do this',
  deviceFirmwareOwnerOnly: 'Only the owner of this device or staff can change its firmware version',
  deviceAlreadyOwner: 'This person already owns this device',
  deviceNewOwnerMissing: (id: string) => `No user found: ${id}`,
  deviceCredentialNotFound: (id: string) => `Credential not found: ${id}`,
  deviceCredentialLimit: (max: number) => `A device holds at most ${max} credentials: revoke one or rotate them`,
  deviceMapScopeSignIn: 'Sign in to see your own devices on the map',
  deviceMapScopeStaff: 'Only staff can see every device on the map',
  // Ours: IoT topics (shared/iot/topics.ts; spec §5: path labels reject empty or missing values).
  iotLabelMissing: (name: string) => `The ${name} in an IoT topic cannot be empty or missing`,
  iotLabelInvalid: (name: string) => `The ${name} in an IoT topic cannot contain "/", "+", "#" or control characters`,
  // Ours: alerts (docs/alerts.md).
  alertRuleNotFound: (id: string) => `Alert rule not found: ${id}`,
  alertNotFound: (id: string) => `Alert not found: ${id}`,
  alertManageRequired: (kind: string) =>
    kind === 'device'
      ? 'Only an owner or administrator of the device can set its alert rules'
      : `Only a manager of the ${kind} can set its alert rules`,
  alertUnknownMeasurement: (name: string) =>
    `Unknown measurement "${name}": the device has never sent it and it is not in the catalogue`,
  alertRecipientNoAccess: (kind: string) => `This person has no access to the ${kind}, so cannot receive its alerts`,
  alertManagersRole: 'The managers role is for campaign and organization rules: a device has owners and administrators',
  alertPreviewKind: 'Only threshold and silence rules can be tried on past data',
  alertPreviewDevice: "A campaign's or organization's rule is tried on one of its devices: name it in deviceId",
  alertPreviewDeviceOutside: (kind: string) => `This device is not one of the ${kind}'s devices`,
  alertScopeAll: 'Only staff see the alerts of every device',
  alertChanged: 'This alert changed at the same moment; please try again',
  // Ours: campaigns (docs/campaigns.md).
  campaignNotFound: (id: string) => `Campaign not found: ${id}`,
  campaignOrganizationNotFound: (id: string) => `Organization not found: ${id}`,
  campaignOrganizationManagerRequired: 'Only a manager of the organization can link a campaign to it',
  campaignChanged: 'This campaign was changed by someone else at the same time; please try again',
  campaignRangeOutside: (startsAt: string, endsAt: string) =>
    `The range asked for lies outside the campaign's window (${startsAt} to ${endsAt})`,
  // Ours: integrations, webhooks (docs/integrations.md).
  webhookNotFound: (id: string) => `Webhook not found: ${id}`,
  webhookDeliveryNotFound: (id: string) => `Delivery not found: ${id}`,
  webhookManagerRequired: (kind: string) =>
    `Only the ${kind}'s ${kind === 'device' ? 'owner or administrators' : 'managers'} (or staff) can see or change its webhooks`,
  webhookTargetNotFound: (kind: string, id: string) => `No ${kind} ${id} to send events of`,
  webhookUrlInvalid: 'url must be a full http(s) address, e.g. https://example.com/hooks',
  webhookUrlHttpsOnly: 'url must start with https://',
  webhookUrlCredentials: 'url cannot carry a user name or password: put a secret in the path if the receiver needs one',
  webhookUrlAddress: (address: string, why: string) =>
    `url points at ${address}, ${why}: webhooks are never sent there`,
  webhookReplayDisabled: 'This webhook is off: turn it on first (what waited is then sent)',
  webhookChanged: 'This webhook was changed by someone else at the same time; please try again',
  webhookLimit: (max: number) => `A target has at most ${max} webhooks: delete one first`,
  // Ours: the audit log (docs/audit.md).
  auditUnavailable: 'The audit log could not record this action, so nothing was changed; please try again',
} as const;
