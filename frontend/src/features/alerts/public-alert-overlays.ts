import { useMemo } from 'react';
import { overlaysOf } from './alert-rules';
import { useDeviceAlerts, useDeviceRules } from './alerts-api';

/**
 * What a device's alerts draw on its charts (docs/style.md §9: the device page's one use of this feature outside its
 * panel): each rule's limit and each alert's firing period. Nothing for a guest, or a person who may not see them.
 */
export const useAlertOverlays = (deviceId: string, enabled: boolean) => {
  const rules = useDeviceRules(deviceId, enabled);
  const alerts = useDeviceAlerts(deviceId, enabled);
  return useMemo(
    () => (enabled ? overlaysOf(rules.data?.items ?? [], alerts.data?.items ?? []) : undefined),
    [enabled, rules.data, alerts.data],
  );
};
