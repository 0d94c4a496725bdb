import type { FirmwareOffer } from '../../../shared/contracts/data-ingress';
import type { FirmwareTarget } from '../../../shared/contracts/devices';

/** What the offer reads: the device's firmware and target, the rollout's status, the release's artifact. */
export interface FirmwareRecords {
  device(
    deviceId: string,
  ): Promise<{ state: string; firmwareVersion?: string; firmwareTarget?: FirmwareTarget } | undefined>;
  rolloutStatus(rolloutId: string): Promise<string | undefined>;
  artifact(releaseId: string): Promise<{ key: string; fileName: string; size: number; sha256: string } | undefined>;
}

export interface FirmwareOfferDeps {
  records: FirmwareRecords;
  downloadUrl: (key: string, fileName: string, expiresInSeconds: number) => Promise<string>;
  now: () => number;
}

/** Long enough to download a few MB on a cellular link; a device asks again for a fresh one. */
export const DOWNLOAD_URL_SECONDS = 15 * 60;

const NONE: FirmwareOffer = { update: null };

/**
 * The firmware a device should run (docs/code-releases.md): the release its rollout assigned, while that rollout is
 * active and the device reports another version. A halted rollout offers nothing: halting stops the update at once.
 */
export const createFirmwareOffer =
  ({ records, downloadUrl, now }: FirmwareOfferDeps) =>
  async (deviceId: string): Promise<FirmwareOffer> => {
    const device = await records.device(deviceId);
    const target = device?.firmwareTarget;
    if (!device || device.state === 'retired' || !target || device.firmwareVersion === target.version) return NONE;
    const [status, artifact] = await Promise.all([
      records.rolloutStatus(target.rolloutId),
      records.artifact(target.releaseId),
    ]);
    if (status !== 'active' || !artifact) return NONE;
    return {
      update: {
        releaseId: target.releaseId,
        rolloutId: target.rolloutId,
        version: target.version,
        size: artifact.size,
        sha256: artifact.sha256,
        url: await downloadUrl(artifact.key, artifact.fileName, DOWNLOAD_URL_SECONDS),
        expiresAt: now() + DOWNLOAD_URL_SECONDS * 1000,
      },
    };
  };
