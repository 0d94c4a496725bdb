import { useQuery } from '@tanstack/react-query';
import { routeKey, routeQuery } from '../../lib/query';

/** A device's alerts show soon after they fire: the panel and the charts read them again this often. */
export const ALERTS_POLL_MS = 15_000;

/** The rules that watch a device: its own, its campaigns' and its organization's. */
export const deviceRulesRead = (deviceId: string) =>
  routeQuery('alerts', 'listRules', { query: { deviceId, limit: 100 } });

export const useDeviceRules = (deviceId: string, enabled = true) => useQuery({ ...deviceRulesRead(deviceId), enabled });

/** A device's alerts, newest first (the first page: the panel's history and the charts' bands). */
export const deviceAlertsRead = (deviceId: string) =>
  routeQuery('alerts', 'listEvents', { query: { deviceId, limit: 50 } });

export const useDeviceAlerts = (deviceId: string, enabled = true) =>
  useQuery({ ...deviceAlertsRead(deviceId), enabled, refetchInterval: ALERTS_POLL_MS });

/** Every read a rule's change or an acknowledgement may change: the rule lists and the alert lists. */
export const alertKeys = [
  routeKey('alerts', 'listRules'),
  routeKey('alerts', 'listEvents'),
  routeKey('alerts', 'getRule'),
];
