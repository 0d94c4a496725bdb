import type { AlertTarget } from '../../../shared/contracts/alerts';
import { inLanes } from '../in-lanes';
import type { StateTouches } from './state-table';

/** Devices touched side by side. */
const TOUCH_LANES = 8;

export interface TargetTouchDeps {
  states: Pick<StateTouches, 'touch' | 'bumpGeneration'>;
  /** The devices a target holds (a device holds itself). */
  devicesOf: (target: AlertTarget) => Promise<string[]>;
  now: () => number;
}

/**
 * What a change to what watches some targets does (an alert rule's, or a webhook's that takes presence; docs/alerts.md):
 * the rule caches forget (the generation moves), then every device of the targets becomes due now, so the sweep sets
 * up or closes their tracks. Returns how many devices were touched.
 */
export const touchTargets = async (
  { states, devicesOf, now }: TargetTouchDeps,
  targets: readonly AlertTarget[],
): Promise<number> => {
  await states.bumpGeneration();
  const unique = [...new Map(targets.map((target) => [`${target.kind}#${target.id}`, target])).values()];
  const devices = [...new Set((await Promise.all(unique.map(devicesOf))).flat())];
  const at = now();
  await inLanes(devices, TOUCH_LANES, (deviceId) => states.touch(deviceId, at));
  return devices.length;
};
