import type { RouteRequest } from '../../../../shared/contracts/define-route';
import {
  type DataVisibility,
  type Device,
  type DeviceStatus,
  devices,
  type LocationPrivacy,
  PRODUCT_LINES,
  type ProductLine,
} from '../../../../shared/contracts/devices';
import { PRODUCT_LINE_NAMES } from '../../../../shared/text/product-words';
import { type Checked, checkWith, problem } from '../../lib/form-check';

/**
 * The devices screens' rules, without React: what the forms send (checked with the contract's schemas, so the
 * user reads the API's own words before anything is sent), how statuses and choices read, what a caller may do.
 */

export const STATUS_TEXT: Record<DeviceStatus, string> = {
  online: 'Online',
  offline: 'Offline',
  provisioned: 'Provisioned',
  retired: 'Retired',
};

/** What each status means, as the badge's tooltip (docs/devices.md defines the lifecycle). */
export const STATUS_HINT: Record<DeviceStatus, string> = {
  online: 'Seen in the last 10 minutes',
  offline: 'Not seen in the last 10 minutes',
  provisioned: 'Registered, not sending yet',
  retired: 'Taken out of service',
};

export const PRODUCT_LINE_OPTIONS = PRODUCT_LINES.map((line) => [line, PRODUCT_LINE_NAMES[line]] as const);

export const PRIVACY_OPTIONS: readonly (readonly [LocationPrivacy, string])[] = [
  ['exact', 'Exact: everyone who sees the device sees where it is'],
  ['approximate', 'Approximate: about 1 km for all but its managers'],
  ['hidden', 'Hidden: only its owner, administrators and staff'],
];

export const VISIBILITY_OPTIONS: readonly (readonly [DataVisibility, string])[] = [
  ['private', 'Private: members only'],
  ['public', 'Public: anyone, signed in or not'],
];

export const ROLE_TEXT = {
  'device-owner': 'Owner',
  'device-administrator': 'Administrator',
  'device-user': 'User',
} as const;

/** The name a list shows: the device's name, else its serial. */
export const deviceLabel = (device: Pick<Device, 'name' | 'serial' | 'id'>): string =>
  device.name || device.serial || device.id;

// ---- forms ----

export type ClaimBody = RouteRequest<typeof devices.routes.claim>['body'];
export type RegisterBody = RouteRequest<typeof devices.routes.register>['body'];
export type UpdateBody = RouteRequest<typeof devices.routes.update>['body'];

export interface ClaimForm {
  serial: string;
  claimCode: string;
}

export const checkClaim = (form: ClaimForm): Checked<ClaimBody> =>
  checkWith(devices.routes.claim.body!, { serial: form.serial, claimCode: form.claimCode });

export interface RegisterForm {
  serial: string;
  productLine: ProductLine;
  model: string;
  firmwareVersion: string;
  name: string;
}

export const EMPTY_REGISTER: RegisterForm = {
  serial: '',
  productLine: 'sd1',
  model: '',
  firmwareVersion: '',
  name: '',
};

export const checkRegister = (form: RegisterForm): Checked<RegisterBody> =>
  checkWith(devices.routes.register.body!, {
    serial: form.serial,
    productLine: form.productLine,
    model: form.model,
    firmwareVersion: form.firmwareVersion,
    ...(form.name.trim() ? { name: form.name } : {}),
  });

export interface EditForm {
  name: string;
  /** Typed text: empty both to have no location. */
  lat: string;
  lon: string;
  locationPrivacy: LocationPrivacy;
  dataVisibility: DataVisibility;
  firmwareVersion: string;
}

export const editFormOf = (device: Device): EditForm => ({
  name: device.name,
  lat: device.location ? String(device.location.lat) : '',
  lon: device.location ? String(device.location.lon) : '',
  locationPrivacy: device.locationPrivacy,
  dataVisibility: device.dataVisibility,
  firmwareVersion: device.firmwareVersion,
});

const numberOrText = (text: string): number | string => {
  const trimmed = text.trim().replace(',', '.');
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : text;
};

/**
 * The changes an edit form makes to a device: only what differs (the API takes only the fields sent), the
 * firmware version only for its owner (and staff, who pass as owners). "Nothing to change" when nothing does.
 */
export const checkEdit = (device: Device, form: EditForm, owner: boolean): Checked<UpdateBody> => {
  const body: UpdateBody = {};
  if (form.name !== device.name) body.name = form.name;
  const lat = form.lat.trim();
  const lon = form.lon.trim();
  if (!lat && !lon) {
    if (device.location) body.location = null;
  } else if (!lat) return problem('lat', 'Give a latitude with the longitude, or neither');
  else if (!lon) return problem('lon', 'Give a longitude with the latitude, or neither');
  else {
    const location = { lat: numberOrText(lat), lon: numberOrText(lon) } as { lat: number; lon: number };
    if (location.lat !== device.location?.lat || location.lon !== device.location?.lon) body.location = location;
  }
  if (form.locationPrivacy !== device.locationPrivacy) body.locationPrivacy = form.locationPrivacy;
  if (form.dataVisibility !== device.dataVisibility) body.dataVisibility = form.dataVisibility;
  if (owner && form.firmwareVersion !== device.firmwareVersion) body.firmwareVersion = form.firmwareVersion;
  const checked = checkWith(devices.routes.update.body!, body);
  if (checked.ok || !('location' in checked.fields)) return checked;
  // A location issue is about one of its two fields: the message names which.
  const field = /longitude/i.test(checked.fields.location!) ? 'lon' : 'lat';
  return { ...checked, fields: { ...checked.fields, [field]: checked.fields.location! } };
};

export const checkTransfer = (newOwnerId: string) =>
  checkWith(devices.routes.transfer.body!, { newOwnerId: newOwnerId.trim() });
