import { isIn, OFFERABLE_STATES, reportKey } from '../../../shared/code-releases/rollout-rules';
import type { FirmwareOffer } from '../../../shared/contracts/data-ingress';
import type { FirmwareTarget } from '../../../shared/contracts/devices';
import type { DeviceUpdates } from '../../_shared/code-releases/device-updates';
import { type StoredTarget, stateOf } from '../../_shared/code-releases/rollout-item';

export interface OfferedArtifact {
  key: string;
  fileName: string;
  size: number;
  sha256: string;
}

/** What the offer reads: the device's firmware and target, its rollout's status and stage, the bytes to offer. */
export interface FirmwareRecords {
  device(
    deviceId: string,
  ): Promise<{ state: string; firmwareVersion?: string; firmwareTarget?: FirmwareTarget } | undefined>;
  /** Read consistently: a halt or a stage's start counts from the very next request. */
  rollout(
    rolloutId: string,
  ): Promise<{ status: string; currentStage?: number; artifact?: OfferedArtifact } | undefined>;
  /** A rollout from before stages kept no copy of its artifact: the release's. */
  artifact(releaseId: string): Promise<OfferedArtifact | undefined>;
  target(rolloutId: string, deviceId: string): Promise<StoredTarget | undefined>;
}

export interface FirmwareOfferDeps {
  records: FirmwareRecords;
  updates: Pick<DeviceUpdates, 'move'>;
  downloadUrl: (key: string, fileName: string, expiresInSeconds: number) => Promise<string>;
  now: () => number;
}

/** Long enough to download a few MB on a cellular link; a device asks again for a fresh one. */
export const DOWNLOAD_URL_SECONDS = 15 * 60;

const NONE: FirmwareOffer = { update: null };

/**
 * The firmware a device should run (docs/code-releases.md, "Devices fetch their firmware"): the release its rollout
 * assigned, while that rollout is active, the device's stage has started, the device reports another version and its
 * update has not finished. A halt stops offers at once: the rollout is read consistently on every request. The first
 * offer moves the device from `pending` to `offered`, from when its timeout counts; an offer costs no write after it.
 */
export const createFirmwareOffer =
  ({ records, updates, downloadUrl, now }: FirmwareOfferDeps) =>
  async (deviceId: string): Promise<FirmwareOffer> => {
    const device = await records.device(deviceId);
    const target = device?.firmwareTarget;
    if (!device || device.state === 'retired' || !target || device.firmwareVersion === target.version) return NONE;
    const rollout = await records.rollout(target.rolloutId);
    if (rollout?.status !== 'active' || (target.stage ?? 0) > (rollout.currentStage ?? 0)) return NONE;
    const stored = await records.target(target.rolloutId, deviceId);
    if (!stored || !isIn(OFFERABLE_STATES, stateOf(stored))) return NONE;
    const artifact = rollout.artifact ?? (await records.artifact(target.releaseId));
    if (!artifact) return NONE;
    const at = now();
    if (stateOf(stored) === 'pending') {
      // The lowest key a move can carry: any report the device sends after this offer outranks it.
      await updates.move(stored, {
        state: 'offered',
        at,
        key: reportKey('offered', 0),
        offered: at,
        from: ['pending'],
      });
    }
    return {
      update: {
        releaseId: target.releaseId,
        rolloutId: target.rolloutId,
        version: target.version,
        size: artifact.size,
        sha256: artifact.sha256,
        url: await downloadUrl(artifact.key, artifact.fileName, DOWNLOAD_URL_SECONDS),
        expiresAt: at + DOWNLOAD_URL_SECONDS * 1000,
      },
    };
  };
