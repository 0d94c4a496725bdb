/**
 * Live readings into the charts without prop plumbing: the live view (live-*.tsx) calls `feedReadings` with what
 * arrives over MQTT, and every chart of that device on screen appends the points (when its range ends now).
 */
export interface FedReading {
  timestamp: number;
  values: Record<string, number>;
}

type Listener = (readings: readonly FedReading[]) => void;

const listeners = new Map<string, Set<Listener>>();

export const feedReadings = (deviceId: string, readings: readonly FedReading[]): void => {
  for (const listener of listeners.get(deviceId) ?? []) listener(readings);
};

/** @returns the unsubscribe function */
export const onFedReadings = (deviceId: string, listener: Listener): (() => void) => {
  const set = listeners.get(deviceId) ?? new Set<Listener>();
  set.add(listener);
  listeners.set(deviceId, set);
  return () => {
    set.delete(listener);
    if (!set.size) listeners.delete(deviceId);
  };
};
