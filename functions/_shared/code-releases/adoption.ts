import { reportKey } from '../../../shared/code-releases/rollout-rules';
import type { FirmwareTarget } from '../../../shared/contracts/devices';
import type { CountChange, DeviceUpdates } from './device-updates';
import type { StoredTarget } from './rollout-item';

/** What recording a device's reported version needs of the rollout records (rollout-targets.ts). */
export interface AdoptionStore {
  /**
   * Records the version the device reports on its target of the rollout, unless it is superseded or a later report
   * was recorded already. @returns the target before, or undefined when nothing was written
   */
  setRunning(
    rolloutId: string,
    deviceId: string,
    report: { version: string; at: number; running: boolean },
  ): Promise<StoredTarget | undefined>;
  addCounts(rolloutId: string, change: CountChange): Promise<void>;
}

/** A target from before staged rollouts kept adoption in its state (`updated`). */
export const wasRunning = (target: StoredTarget) => target.running ?? (target.state as string) === 'updated';

/**
 * A device reported a firmware version while a rollout targets it (with its readings, or by reporting its update
 * succeeded): the rollout's adoption count follows whether it runs the release, and running it means the update
 * succeeded, whatever the device said of it before (docs/code-releases.md, "Adoption"). Each write is conditional, so
 * a report repeated after a failure never counts twice.
 */
export const recordFirmwareReport = async (
  { store, updates }: { store: AdoptionStore; updates: Pick<DeviceUpdates, 'move'> },
  deviceId: string,
  target: FirmwareTarget,
  version: string,
  at: number,
): Promise<void> => {
  const running = version === target.version;
  const before = await store.setRunning(target.rolloutId, deviceId, { version, at, running });
  if (!before) return;
  if (wasRunning(before) !== running) await store.addCounts(target.rolloutId, { adopted: running ? 1 : -1 });
  if (running) await updates.move(before, { state: 'succeeded', at, key: reportKey('succeeded', at) });
};
