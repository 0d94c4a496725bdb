import { createFirmwareOffer, type FirmwareRecords } from './firmware-offer';

const target = { releaseId: 'sd1-1.4.2', rolloutId: 'r1', version: '1.4.2', assigned: 1 };
const artifact = { key: 'releases/sd1-1.4.2/artifact-x', fileName: 'fw.bin', size: 10, sha256: 'ab'.repeat(32) };

const offer = (device: Awaited<ReturnType<FirmwareRecords['device']>>, status = 'active') =>
  createFirmwareOffer({
    records: {
      device: async () => device,
      rolloutStatus: async () => status,
      artifact: async () => artifact,
    },
    downloadUrl: async (key, fileName, seconds) => `https://bucket/${key}?name=${fileName}&for=${seconds}`,
    now: () => 1_000,
  })('dev-1');

describe('the firmware offer', () => {
  it('offers the assigned release with its checksum and a 15-minute download while the rollout is active', async () => {
    expect(await offer({ state: 'active', firmwareVersion: '1.4.1', firmwareTarget: target })).toEqual({
      update: {
        releaseId: 'sd1-1.4.2',
        rolloutId: 'r1',
        version: '1.4.2',
        size: 10,
        sha256: artifact.sha256,
        url: 'https://bucket/releases/sd1-1.4.2/artifact-x?name=fw.bin&for=900',
        expiresAt: 1_000 + 900_000,
      },
    });
  });

  it('offers nothing once halted, once installed, without a target, or to a retired device', async () => {
    expect(await offer({ state: 'active', firmwareVersion: '1.4.1', firmwareTarget: target }, 'halted')).toEqual({
      update: null,
    });
    expect(await offer({ state: 'active', firmwareVersion: '1.4.2', firmwareTarget: target })).toEqual({
      update: null,
    });
    expect(await offer({ state: 'active', firmwareVersion: '1.4.1' })).toEqual({ update: null });
    expect(await offer({ state: 'retired', firmwareVersion: '1.4.1', firmwareTarget: target })).toEqual({
      update: null,
    });
    expect(await offer(undefined)).toEqual({ update: null });
  });
});
