import { lazy } from 'react';

/**
 * What other features may use of the devices (docs/style.md §9, §17): a device's status badge, the texts that name it,
 * and the create forms, which load when opened: a guest's first page (issue 13) carries none of them.
 */
export { StatusBadge } from './device-parts';
export { deviceLabel, ROLE_TEXT } from './device-rules';

export const ClaimDeviceForm = lazy(() => import('./claim-device-form').then((m) => ({ default: m.ClaimDeviceForm })));
export const RegisterDeviceForm = lazy(() =>
  import('./register-device-form').then((m) => ({ default: m.RegisterDeviceForm })),
);
