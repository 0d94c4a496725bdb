import type { Caller } from '../../../shared/auth/verify-token';
import { FIRMWARE_HISTORY_MAX, type FirmwareUpdate } from '../../../shared/contracts/devices';
import { stateOf } from '../../_shared/code-releases/rollout-item';
import type { Devices } from './devices';
import type { FirmwareUpdateStates } from './ports';

/**
 * A device's firmware update history (docs/code-releases.md, "Update history"): the rollouts that targeted it, from
 * its own record, with what became of each update, from each rollout's target of the device. Its managers and staff
 * see it, as they see the rollout that targets it now.
 */
export const createFirmwareUpdates = ({
  devices,
  states,
}: {
  devices: Pick<Devices, 'managed'>;
  states: FirmwareUpdateStates;
}) => ({
  list: async (caller: Caller, deviceId: string): Promise<{ items: FirmwareUpdate[] }> => {
    const device = await devices.managed(caller, deviceId, { active: false });
    const history = (device.firmwareHistory ?? []).slice(-FIRMWARE_HISTORY_MAX).reverse();
    const targets = await states.of(history.map(({ rolloutId }) => ({ rolloutId, deviceId })));
    const byRollout = new Map(targets.map((target) => [target.rolloutId, target]));
    return {
      items: history.map((entry) => {
        const target = byRollout.get(entry.rolloutId);
        return {
          ...entry,
          ...(target
            ? {
                state: stateOf(target),
                ...(target.stateAt !== undefined ? { stateAt: target.stateAt } : {}),
                ...(target.offered !== undefined ? { offered: target.offered } : {}),
                ...(target.reason ? { reason: target.reason } : {}),
                ...(target.superseded !== undefined ? { superseded: target.superseded } : {}),
              }
            : {}),
        };
      }),
    };
  },
});

export type FirmwareUpdates = ReturnType<typeof createFirmwareUpdates>;
