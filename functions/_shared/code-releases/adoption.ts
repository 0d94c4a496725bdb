import type { FirmwareTarget } from '../../../shared/contracts/devices';

export type TargetState = 'pending' | 'updated' | 'superseded';

export interface CountChange {
  targeted?: number;
  adopted?: number;
  superseded?: number;
}

/** What recording a device's report needs of the rollout records (functions/_shared/code-releases/rollout-targets.ts). */
export interface AdoptionStore {
  /**
   * Moves the device's target of the rollout to `state` with the version it reported, unless it is superseded or a
   * later report was recorded already. @returns the state before, or undefined when nothing was written
   */
  report(
    rolloutId: string,
    deviceId: string,
    report: { version: string; at: number; state: 'pending' | 'updated' },
  ): Promise<TargetState | undefined>;
  addCounts(rolloutId: string, change: CountChange): Promise<void>;
}

/**
 * A device reported a firmware version while a rollout targets it: its target becomes `updated` when the version is
 * the release's, `pending` again when it is another (a rollback, a manual flash), and the rollout's adoption count
 * follows the change. The state write is conditional, so a report repeated after a failure never counts twice.
 */
export const recordFirmwareReport = async (
  store: AdoptionStore,
  deviceId: string,
  target: FirmwareTarget,
  version: string,
  at: number,
): Promise<void> => {
  const state = version === target.version ? 'updated' : 'pending';
  const before = await store.report(target.rolloutId, deviceId, { version, at, state });
  if (before === undefined || before === state || before === 'superseded') return;
  await store.addCounts(target.rolloutId, { adopted: state === 'updated' ? 1 : -1 });
};
