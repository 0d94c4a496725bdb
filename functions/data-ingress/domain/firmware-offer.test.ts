import type { MoveTo } from '../../_shared/code-releases/device-updates';
import type { StoredTarget } from '../../_shared/code-releases/rollout-item';
import { createFirmwareOffer, type FirmwareRecords } from './firmware-offer';

const target = { releaseId: 'sd1-1.4.2', rolloutId: 'r1', version: '1.4.2', assigned: 1, stage: 1 };
const artifact = { key: 'releases/sd1-1.4.2/artifact-x', fileName: 'fw.bin', size: 10, sha256: 'ab'.repeat(32) };
const stored = (state: StoredTarget['state']): StoredTarget => ({
  rolloutId: 'r1',
  deviceId: 'dev-1',
  releaseId: 'sd1-1.4.2',
  version: '1.4.2',
  stage: 1,
  state,
  assigned: 1,
});

type Device = Awaited<ReturnType<FirmwareRecords['device']>>;

const offerWith = (
  options: { device?: Device; status?: string; currentStage?: number; state?: StoredTarget['state'] } = {},
) => {
  const device: Device =
    'device' in options ? options.device : { state: 'active', firmwareVersion: '1.4.1', firmwareTarget: target };
  const { status = 'active', currentStage = 1, state = 'pending' } = options;
  const moves: MoveTo[] = [];
  const offer = createFirmwareOffer({
    records: {
      device: async () => device,
      rollout: async () => ({ status, currentStage, artifact }),
      artifact: async () => undefined,
      target: async () => stored(state),
    },
    updates: {
      move: async (_target, to) => {
        moves.push(to);
        return stored(state);
      },
    },
    downloadUrl: async (key, fileName, seconds) => `https://bucket/${key}?name=${fileName}&for=${seconds}`,
    now: () => 1_000,
  });
  return { offer: () => offer('dev-1'), moves };
};

describe('the firmware offer', () => {
  it('offers the rollout’s bytes with their checksum and a 15-minute download once the device’s stage has started, and marks it offered once', async () => {
    const pending = offerWith();
    expect(await pending.offer()).toEqual({
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
    expect(pending.moves).toEqual([{ state: 'offered', at: 1_000, key: 1, offered: 1_000, from: ['pending'] }]);
    // Offered already, or on its way: offered again (a fresh URL), with no write.
    for (const state of ['offered', 'downloading', 'installing', 'timed_out'] as const) {
      const again = offerWith({ state });
      expect((await again.offer()).update?.version).toBe('1.4.2');
      expect(again.moves).toEqual([]);
    }
  });

  it('offers nothing before the device’s stage starts, while its rollout prepares, once halted or rolled back, once finished or installed, without a target, or to a retired device', async () => {
    const none = { update: null };
    expect(await offerWith({ currentStage: 0 }).offer()).toEqual(none);
    expect(await offerWith({ status: 'preparing' }).offer()).toEqual(none);
    expect(await offerWith({ status: 'halted' }).offer()).toEqual(none);
    expect(await offerWith({ status: 'rolled-back' }).offer()).toEqual(none);
    for (const state of ['succeeded', 'failed', 'rejected', 'superseded'] as const) {
      expect(await offerWith({ state }).offer()).toEqual(none);
    }
    expect(
      await offerWith({ device: { state: 'active', firmwareVersion: '1.4.2', firmwareTarget: target } }).offer(),
    ).toEqual(none);
    expect(await offerWith({ device: { state: 'active', firmwareVersion: '1.4.1' } }).offer()).toEqual(none);
    expect(
      await offerWith({ device: { state: 'retired', firmwareVersion: '1.4.1', firmwareTarget: target } }).offer(),
    ).toEqual(none);
    expect(await offerWith({ device: undefined }).offer()).toEqual(none);
  });
});
