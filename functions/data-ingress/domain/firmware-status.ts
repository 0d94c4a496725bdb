import { RELEASE_MESSAGES } from '../../../shared/code-releases/messages';
import { isIn, reportKey } from '../../../shared/code-releases/rollout-rules';
import type { FirmwareStatusReport, FirmwareStatusResult } from '../../../shared/contracts/data-ingress';
import { MAX_CLOCK_SKEW_MS } from '../../../shared/sensor-data/measurements';
import { type AdoptionStore, recordFirmwareReport } from '../../_shared/code-releases/adoption';
import type { DeviceUpdates } from '../../_shared/code-releases/device-updates';
import { type StoredTarget, stateOf } from '../../_shared/code-releases/rollout-item';
import { BadRequest, Conflict, NotFound } from '../../_shared/errors';
import type { FirmwareRecords } from './firmware-offer';
import type { DeviceSeenStore } from './ports';

export interface FirmwareStatusDeps {
  records: Pick<FirmwareRecords, 'rollout' | 'target'>;
  updates: Pick<DeviceUpdates, 'move'>;
  adoption: AdoptionStore;
  devices: Pick<DeviceSeenStore, 'reportFirmware'>;
  now: () => number;
}

const timeOf = (at: number | string): number => (typeof at === 'number' ? at : Date.parse(at));

/**
 * A device's report of the update it was offered (docs/code-releases.md, "Devices report"), over HTTPS or MQTT. The
 * report must name a rollout the device is in and that rollout's release; it moves the device's state only when it
 * outranks what was recorded (decision 076), so reports repeated or out of order end in the same state. A report of
 * success also records that the device runs the release (adoption, and the version on the device's record); a
 * failure can halt the rollout there and then (its abort criteria).
 */
export const createFirmwareStatus = ({ records, updates, adoption, devices, now }: FirmwareStatusDeps) => ({
  report: async (deviceId: string, report: FirmwareStatusReport): Promise<FirmwareStatusResult> => {
    const at = timeOf(report.at);
    if (at > now() + MAX_CLOCK_SKEW_MS)
      throw new BadRequest(RELEASE_MESSAGES.firmwareReportFuture(MAX_CLOCK_SKEW_MS / 60_000));
    const target: StoredTarget | undefined = await records.target(report.rolloutId, deviceId);
    if (!target) throw new NotFound(RELEASE_MESSAGES.firmwareReportNotInRollout(deviceId, report.rolloutId));
    if (target.releaseId !== report.releaseId) {
      throw new BadRequest(
        RELEASE_MESSAGES.firmwareReportOtherRelease(report.rolloutId, target.releaseId, report.releaseId),
      );
    }
    const state = stateOf(target);
    if (target.superseded !== undefined || state === 'superseded') {
      throw new Conflict(RELEASE_MESSAGES.firmwareReportSuperseded(deviceId, report.rolloutId));
    }
    if (state === 'pending') {
      const rollout = await records.rollout(report.rolloutId);
      // A preparing rollout offers nothing (decision 114): its counts are the assignment's until it is active.
      if (rollout?.status === 'preparing' || (target.stage ?? 0) > (rollout?.currentStage ?? 0)) {
        throw new Conflict(RELEASE_MESSAGES.firmwareReportNotOffered(deviceId));
      }
    }
    const moved = await updates.move(target, {
      state: report.state,
      at,
      key: reportKey(report.state, at),
      // Offered before its offer was marked (a poll whose mark failed): the first report stands for it.
      ...(target.offered === undefined ? { offered: at } : {}),
      ...(isIn(['failed', 'rejected'] as const, report.state) && report.reason ? { reason: report.reason } : {}),
    });
    if (report.state === 'succeeded') {
      // The device runs the release now: its adoption and its record's version, each a conditional write.
      const firmwareTarget = {
        releaseId: target.releaseId,
        rolloutId: target.rolloutId,
        version: target.version,
        assigned: target.assigned,
      };
      await recordFirmwareReport({ store: adoption, updates }, deviceId, firmwareTarget, target.version, at);
      await devices.reportFirmware(deviceId, target.version, at);
    }
    return { rolloutId: report.rolloutId, state: moved ? report.state : state, recorded: moved !== undefined };
  },
});

export type FirmwareStatus = ReturnType<typeof createFirmwareStatus>;
