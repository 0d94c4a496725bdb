import type { Device } from '../../../shared/contracts/devices';

/** What the caller may do with a device, from the access the API reports on it (docs/devices.md). */
export const mayManage = (device: Pick<Device, 'access'>): boolean =>
  device.access === 'manage' || device.access === 'own';
export const mayOwn = (device: Pick<Device, 'access'>): boolean => device.access === 'own';
