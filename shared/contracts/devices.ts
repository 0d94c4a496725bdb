import * as z from 'zod';
import { SafeText } from '../text/sanitize';
import { EpochMillis, PageQuery, page } from './common';
import { defineArea, defineRoute, guest, minGroup, signedIn } from './define-route';
import { DeviceId, deviceIdOf, FirmwareVersion, PRODUCT_LINES, ProductLine, UserId } from './shapes';

/**
 * The device registry (docs/devices.md holds the model and the lifecycle). A device's id follows from its
 * serial at registration (`dev-` + the lower-cased serial), so a serial is registered once; ids seeded
 * before that rule (the demo devices) keep theirs (`DeviceId` is in `shapes.ts`, which other areas name).
 */
export { DeviceId, deviceIdOf, FirmwareVersion, PRODUCT_LINES, ProductLine };

/** Printed on the label: 4 to 32 letters, digits and inner dashes; case does not matter (stored upper-case). */
export const Serial = z
  .string({ error: 'Serial must be text' })
  .trim()
  .toUpperCase()
  .min(4, 'Serial is 4 to 32 characters')
  .max(32, 'Serial is 4 to 32 characters')
  .regex(/^[A-Z0-9](?:[A-Z0-9-]*[A-Z0-9])?$/, 'Serial may contain only letters, digits and inner dashes');

export const Model = z
  .string({ error: 'Model must be text' })
  .trim()
  .min(1, 'Model cannot be empty')
  .max(64, 'Model is at most 64 characters')
  .regex(/^[A-Za-z0-9 ._+-]+$/, 'Model may contain only letters, digits, spaces and . _ + -');

export const DeviceName = SafeText('Name', 80);

export const Location = z
  .object({
    lat: z
      .number({ error: 'Latitude must be a number' })
      .min(-90, 'Latitude is from -90 to 90')
      .max(90, 'Latitude is from -90 to 90'),
    lon: z
      .number({ error: 'Longitude must be a number' })
      .min(-180, 'Longitude is from -180 to 180')
      .max(180, 'Longitude is from -180 to 180'),
  })
  .strict();
export type Location = z.infer<typeof Location>;

/**
 * Who sees where a device is. `exact`: everyone who may see the device; `approximate`: managers (owner,
 * administrators, staff) exactly, everyone else rounded to about 1 km; `hidden`: managers only.
 */
export const LOCATION_PRIVACY = ['exact', 'approximate', 'hidden'] as const;
export const LocationPrivacy = z.enum(LOCATION_PRIVACY, {
  error: () => `Location privacy must be one of: ${LOCATION_PRIVACY.join(', ')}`,
});
export type LocationPrivacy = z.infer<typeof LocationPrivacy>;

/** `public`: anyone, signed in or not, sees the device's metadata (and, later, its data); `private`: members only. */
export const DataVisibility = z.enum(['public', 'private'], {
  error: () => 'Data visibility must be public or private',
});
export type DataVisibility = z.infer<typeof DataVisibility>;

/** Stored lifecycle state: registered (`provisioned`), claimed (`active`), `retired` (final). */
export const DeviceState = z.enum(['provisioned', 'active', 'retired']);
export type DeviceState = z.infer<typeof DeviceState>;

/** Displayed status, derived at read time from the state and last seen (online: seen within 10 minutes). */
export const DeviceStatus = z.enum(['provisioned', 'online', 'offline', 'retired']);
export type DeviceStatus = z.infer<typeof DeviceStatus>;

/** The release a rollout assigned to a device (docs/code-releases.md): the latest rollout that targeted it. */
export const FirmwareTarget = z.object({
  releaseId: z.string(),
  rolloutId: z.string(),
  version: z.string(),
  assigned: EpochMillis,
  /** The rollout stage the device is in: it is offered the release once that stage has started. */
  stage: z.number().int().nonnegative().optional(),
});
export type FirmwareTarget = z.infer<typeof FirmwareTarget>;

/** The newest rollouts that targeted a device, as its page lists them (docs/code-releases.md, "Update history"). */
export const FIRMWARE_HISTORY_MAX = 20;

/** One rollout that targeted the device, and what became of the update. */
export const FirmwareUpdate = z.object({
  rolloutId: z.string(),
  releaseId: z.string(),
  version: z.string(),
  assigned: EpochMillis,
  /** Where the update stands (docs/code-releases.md, "Per-device state"); absent when the record is gone. */
  state: z.string().optional(),
  /** When it reached `state`. */
  stateAt: EpochMillis.optional(),
  offered: EpochMillis.optional(),
  /** Why it failed or was rejected, as the device said. */
  reason: z.string().optional(),
  /** A later rollout took the device over. */
  superseded: EpochMillis.optional(),
});
export type FirmwareUpdate = z.infer<typeof FirmwareUpdate>;

/** What the caller may do with a device, so a screen offers only allowed actions. */
export const DeviceAccess = z.enum(['none', 'view', 'manage', 'own']);

export const Device = z.object({
  id: DeviceId,
  serial: z.string(),
  name: z.string(),
  productLine: ProductLine,
  model: z.string(),
  firmwareVersion: z.string(),
  /** Since when the device itself reports `firmwareVersion` with its readings (absent: set by a person). */
  firmwareReported: EpochMillis.optional(),
  /** The release the latest rollout assigned to it (managers and staff only). */
  firmwareTarget: FirmwareTarget.optional(),
  /** As the caller may see it: absent when there is none or it is hidden from the caller. */
  location: Location.optional(),
  /** True when `location` was rounded for this caller (approximate privacy, caller not a manager). */
  locationApproximate: z.boolean().optional(),
  locationPrivacy: LocationPrivacy,
  dataVisibility: DataVisibility,
  state: DeviceState,
  status: DeviceStatus,
  lastSeen: EpochMillis.optional(),
  created: EpochMillis,
  updated: EpochMillis,
  /** Denormalized from the device-owner relation (the authority for access); absent until claimed. */
  ownerId: z.string().optional(),
  claimed: EpochMillis.optional(),
  retired: EpochMillis.optional(),
  access: DeviceAccess,
});
export type Device = z.infer<typeof Device>;

/** A device in "my devices", with the caller's strongest relation to it. */
export const MyDevice = Device.extend({ role: z.enum(['device-owner', 'device-administrator', 'device-user']) });
export type MyDevice = z.infer<typeof MyDevice>;

/** A point on the map: only what a marker and its popup need. */
export const MapDevice = z.object({
  id: DeviceId,
  name: z.string(),
  productLine: ProductLine,
  status: DeviceStatus,
  dataVisibility: DataVisibility,
  location: Location,
  locationApproximate: z.boolean(),
});
export type MapDevice = z.infer<typeof MapDevice>;

/** Shown once at registration: print it on the label. Case and dashes do not matter when typed back. */
export const ClaimCode = z
  .string({ error: 'Claim code must be text' })
  .trim()
  .min(1, 'Claim code cannot be empty')
  .max(64, 'Claim code is at most 64 characters');

export const CredentialId = z
  .string()
  .trim()
  .min(1, 'Credential id cannot be empty')
  .max(64, 'Credential id is at most 64 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'Credential id may contain only letters, digits, _ and -');

/** A credential as listed: never its secret. */
export const DeviceCredential = z.object({
  credentialId: z.string(),
  deviceId: DeviceId,
  created: EpochMillis,
  createdBy: z.string(),
  lastUsed: EpochMillis.optional(),
});
export type DeviceCredential = z.infer<typeof DeviceCredential>;

/** Answered once, when a credential is made: the device presents `token` (`{credentialId}.{secret}`). */
export const NewDeviceCredential = DeviceCredential.extend({ secret: z.string(), token: z.string() });
export type NewDeviceCredential = z.infer<typeof NewDeviceCredential>;

const IdParams = z.object({ id: DeviceId });

export const MapScope = z.enum(['visible', 'public', 'mine', 'all'], {
  error: () => 'Scope must be one of: visible, public, mine, all',
});

export const devices = defineArea('devices', {
  register: defineRoute({
    method: 'POST',
    path: '/devices',
    access: minGroup('Distributors'),
    summary:
      'Register a serial (staff, Distributors): answers the device and its one-time claim code, shown only here; 409 when the serial is registered.',
    body: z
      .object({
        serial: Serial,
        productLine: ProductLine,
        model: Model,
        firmwareVersion: FirmwareVersion,
        name: DeviceName.optional(),
      })
      .strict(),
    response: z.object({ device: Device, claimCode: z.string() }),
    status: 201,
  }),
  claim: defineRoute({
    method: 'POST',
    path: '/claim',
    access: signedIn,
    summary:
      'Claim a device by serial and claim code: the caller becomes its owner. 409 when already claimed; 403 for a wrong code or an unknown serial (the same answer).',
    body: z.object({ serial: Serial, claimCode: ClaimCode }).strict(),
    response: Device,
  }),
  listMine: defineRoute({
    method: 'GET',
    path: '/my-devices',
    access: signedIn,
    summary: 'The devices the caller owns, administers or uses, with status, paged.',
    query: PageQuery,
    response: page(MyDevice),
  }),
  listAll: defineRoute({
    method: 'GET',
    path: '/devices',
    access: minGroup('Employees'),
    summary: 'Every device (staff), newest first per product line; optionally of one product line. Paged.',
    query: PageQuery.extend({ productLine: ProductLine.optional() }),
    response: page(Device),
  }),
  map: defineRoute({
    method: 'GET',
    path: '/map',
    access: guest,
    summary:
      'Devices with a location the caller may see, for the map. `visible` (default): the caller’s own, then public ones; `public`; `mine` (signed in); `all` (staff). Paged.',
    query: PageQuery.extend({ scope: MapScope.default('visible') }),
    response: page(MapDevice),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/devices/{id}',
    access: guest,
    summary: 'One device: anyone for a public device (location per its privacy), members and staff for a private one.',
    params: IdParams,
    response: Device,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/devices/{id}',
    access: signedIn,
    summary:
      'Change name, location and its privacy, data visibility (owner, administrators, staff); firmware version (owner, staff). A retired device changes only by staff.',
    params: IdParams,
    body: z
      .object({
        name: DeviceName.optional(),
        /** `null` removes the location. */
        location: Location.nullable().optional(),
        locationPrivacy: LocationPrivacy.optional(),
        dataVisibility: DataVisibility.optional(),
        firmwareVersion: FirmwareVersion.optional(),
      })
      .strict()
      .refine((body) => Object.values(body).some((v) => v !== undefined), 'Nothing to change'),
    response: Device,
  }),
  transfer: defineRoute({
    method: 'POST',
    path: '/devices/{id}/transfer',
    access: signedIn,
    summary:
      'Move ownership to another existing user (owner, staff). Administrators and users of the device keep their relations.',
    params: IdParams,
    body: z.object({ newOwnerId: UserId }).strict(),
    response: Device,
  }),
  retire: defineRoute({
    method: 'POST',
    path: '/devices/{id}/retire',
    access: signedIn,
    summary:
      'Retire a device (owner, staff): its credentials are revoked, it cannot be claimed, its data is kept. Final.',
    params: IdParams,
    response: Device,
  }),
  listFirmwareUpdates: defineRoute({
    method: 'GET',
    path: '/devices/{id}/firmware-updates',
    access: signedIn,
    summary: `A device's firmware update history (managers, staff): the newest ${FIRMWARE_HISTORY_MAX} rollouts that targeted it and what became of each update, newest first.`,
    params: IdParams,
    response: z.object({ items: z.array(FirmwareUpdate) }),
  }),
  listCredentials: defineRoute({
    method: 'GET',
    path: '/devices/{id}/credentials',
    access: signedIn,
    summary: "A device's ingress credentials (owner, administrators, staff): ids and times only, never secrets.",
    params: IdParams,
    query: PageQuery,
    response: page(DeviceCredential),
  }),
  createCredential: defineRoute({
    method: 'POST',
    path: '/devices/{id}/credentials',
    access: signedIn,
    summary:
      'Make an ingress credential (owner, administrators, staff); its secret is answered once and stored only as a hash.',
    params: IdParams,
    response: NewDeviceCredential,
    status: 201,
  }),
  rotateCredentials: defineRoute({
    method: 'POST',
    path: '/devices/{id}/credentials/rotate',
    access: signedIn,
    summary: 'Replace every ingress credential of the device with one new one (its secret answered once).',
    params: IdParams,
    response: NewDeviceCredential,
    status: 201,
  }),
  revokeCredential: defineRoute({
    method: 'DELETE',
    path: '/devices/{id}/credentials/{credentialId}',
    access: signedIn,
    summary: 'Revoke one ingress credential (owner, administrators, staff).',
    params: IdParams.extend({ credentialId: CredentialId }),
    response: z.void(),
  }),
});
