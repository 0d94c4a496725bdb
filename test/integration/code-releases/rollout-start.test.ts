import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { RELEASE_MESSAGES } from '../../../shared/code-releases/messages';
import { ROLLOUT_INLINE_DEVICES } from '../../../shared/contracts/code-releases';
import { credentialFor, freshMajor, preparingRollout, seedFleet, seedRelease } from '../../support/code-releases';
import { eventually } from '../../support/sensor-data';
import { apiAs, apiRejection, documentClient, everyPage, stack, tokenOf } from '../../support/stack';
import { useStackEnvironment } from '../../support/stack-env';

let restoreEnvironment: () => void;
beforeAll(() => {
  restoreEnvironment = useStackEnvironment();
});
afterAll(() => restoreEnvironment());

/**
 * Starting a rollout over hundreds of devices through the local gateway (docs/code-releases.md, "Starting a rollout",
 * decision 098): the targets are written by batches and the devices in parallel, so the one request must still leave
 * every device in exactly one stage, the stages sized as the default shares say, and the rollout the devices leave
 * counted right (its counters move once per stage, not once per device).
 */

const administrator = async () => apiAs('code-releases', await tokenOf('admin@example.com'));
const employee = async () => apiAs('code-releases', await tokenOf('employee@example.com'));
const devicesOf = async (id: string, query: { stage?: number } = {}) =>
  everyPage(async (cursor) =>
    (await employee()).listRolloutDevices({
      params: { id },
      query: { limit: 100, ...(cursor ? { cursor } : {}), ...query } as never,
    }),
  );

/** The devices' records as the offer reads them, 100 to a BatchGetItem. */
const recordsOf = async (ids: readonly string[]) => {
  const found = new Map<string, Record<string, unknown>>();
  for (let from = 0; from < ids.length; from += 100) {
    const answer = await documentClient().send(
      new BatchGetCommand({
        RequestItems: {
          [stack().tables.devices!]: {
            Keys: ids.slice(from, from + 100).map((id) => ({ id })),
            ConsistentRead: true,
          },
        },
      }),
    );
    for (const item of answer.Responses?.[stack().tables.devices!] ?? []) found.set(String(item.id), item);
  }
  return found;
};

const setDevice = (id: string, field: 'state' | 'firmwareVersion', value: string) =>
  documentClient().send(
    new UpdateCommand({
      TableName: stack().tables.devices!,
      Key: { id },
      UpdateExpression: 'SET #field = :value',
      ExpressionAttributeNames: { '#field': field },
      ExpressionAttributeValues: { ':value': value },
    }),
  );

describe('staged rollouts: starting one over many devices', () => {
  it('puts each of 300 devices in exactly one stage of the default sizes in one request, and counts the devices it takes from an earlier rollout', async () => {
    const admin = await administrator();
    const fleet = await seedFleet(301);
    const [retired, ...reached] = fleet;
    const earlierRelease = await seedRelease({ results: ['Pass'] });
    const release = await seedRelease({ results: ['Pass'] });
    // 100 of the devices are in an earlier rollout (every one still pending) when the new one starts.
    const earlier = await admin.createRollout({
      params: { id: earlierRelease.id },
      body: { target: { kind: 'devices', deviceIds: reached.slice(0, 100) } },
    });
    expect(earlier.stages.map((s) => s.devices)).toEqual([1, 4, 20, 75]);
    await setDevice(retired!, 'state', 'retired');
    // One device runs the new release already: it has nothing to install, so it is counted as adopted at once.
    const runsIt = reached[150]!;
    await setDevice(runsIt, 'firmwareVersion', release.version);

    const rollout = await admin.createRollout({
      params: { id: release.id },
      body: { target: { kind: 'devices', deviceIds: fleet } },
    });
    // 1 %, 5 %, 25 % and 100 % of 300, each rounded up and cumulative: 3, 15, 75 and 300 devices in all.
    expect(rollout).toMatchObject({
      status: 'active',
      counts: { targeted: 300, adopted: 1, superseded: 0 },
      skipped: { otherProductLine: 0, retired: 1, unknown: 0 },
    });
    expect(rollout.stages.map((s) => [s.devices, s.counts.pending, s.counts.succeeded])).toEqual([
      [3, 3, 0],
      [12, 12, 0],
      [60, 60, 0],
      // The device that runs the release sorts last: into the last stage, succeeded.
      [225, 224, 1],
    ]);

    const listed = await devicesOf(rollout.id);
    expect(listed).toHaveLength(300);
    expect(new Set(listed.map((d) => d.deviceId))).toEqual(new Set(reached));
    const stageOf = new Map(listed.map((d) => [d.deviceId, d.stage]));
    for (const [stage, size] of [3, 12, 60, 225].entries()) {
      const inStage = await devicesOf(rollout.id, { stage });
      expect(inStage).toHaveLength(size);
      expect(inStage.every((d) => stageOf.get(d.deviceId) === stage)).toBe(true);
    }
    expect(stageOf.get(runsIt)).toBe(3);
    // Each device's record points at the rollout with the same stage as its target; the retired one is left alone.
    const records = await recordsOf(fleet);
    const pointing = reached.filter((id) => {
      const target = records.get(id)?.firmwareTarget as { rolloutId?: string; stage?: number } | undefined;
      return target?.rolloutId === rollout.id && target.stage === stageOf.get(id);
    });
    expect(pointing).toHaveLength(300);
    expect(records.get(retired!)?.firmwareTarget).toBeUndefined();

    // The earlier rollout lost its 100 devices: superseded in every stage, none pending.
    const before = await (await employee()).getRollout({ params: { id: earlier.id } });
    expect(before.counts).toEqual({ targeted: 100, adopted: 0, superseded: 100 });
    expect(before.stages.map((s) => [s.counts.pending, s.counts.superseded])).toEqual([
      [0, 1],
      [0, 4],
      [0, 20],
      [0, 75],
    ]);
  });

  it('answers a rollout of more devices than a request assigns preparing, and the queue job assigns them all once', async () => {
    const admin = await administrator();
    const fleet = await seedFleet(ROLLOUT_INLINE_DEVICES + 100);
    const earlierRelease = await seedRelease({ results: ['Pass'] });
    const release = await seedRelease({ results: ['Pass'] });
    const earlier = await admin.createRollout({
      params: { id: earlierRelease.id },
      body: { target: { kind: 'devices', deviceIds: fleet.slice(0, 200) } },
    });
    expect(earlier.status).toBe('active');

    const started = await admin.createRollout({
      params: { id: release.id },
      body: { target: { kind: 'devices', deviceIds: fleet } },
    });
    expect(started).toMatchObject({ status: 'preparing', preparing: { assigned: 0, of: 1_100 } });
    expect(started.stages.map((s) => s.devices)).toEqual([11, 44, 220, 825]);
    expect(started.stages[0]!.started).toBeUndefined();

    // The rollouts queue's worker assigns them, 500 a step (decision 114).
    const rollout = await eventually(async () => {
      const found = await (await employee()).getRollout({ params: { id: started.id } });
      return found.status === 'active' && found;
    }, 120_000);
    expect(rollout.preparing).toBeUndefined();
    expect(rollout.counts).toEqual({ targeted: 1_100, adopted: 0, superseded: 0 });
    // 1 %, 5 %, 25 % and 100 % of 1,100: 11, 55, 275 and 1,100 devices in all.
    expect(rollout.stages.map((s) => [s.devices, s.counts.pending])).toEqual([
      [11, 11],
      [44, 44],
      [220, 220],
      [825, 825],
    ]);
    expect(rollout.stages[0]!.started).toBeGreaterThanOrEqual(started.created);
    expect(await devicesOf(rollout.id)).toHaveLength(1_100);

    // Each device points at it, and its update history names it once.
    const records = await recordsOf(fleet);
    const histories = fleet.map((id) =>
      ((records.get(id)?.firmwareHistory ?? []) as { rolloutId: string }[]).map((entry) => entry.rolloutId),
    );
    expect(histories.slice(0, 200).every((h) => h.join() === [earlier.id, rollout.id].join())).toBe(true);
    expect(histories.slice(200).every((h) => h.join() === rollout.id)).toBe(true);
    const earlierNow = await (await employee()).getRollout({ params: { id: earlier.id } });
    expect(earlierNow.counts).toEqual({ targeted: 200, adopted: 0, superseded: 200 });

    // Its canary is offered the release; a device of a later stage is not yet.
    const [canary] = await devicesOf(rollout.id, { stage: 0 });
    const offer = await apiAs('data-ingress', await credentialFor(canary!.deviceId)).getFirmware({});
    expect(offer.update).toMatchObject({ rolloutId: rollout.id, version: release.version });
    const [later] = await devicesOf(rollout.id, { stage: 3 });
    const none = await apiAs('data-ingress', await credentialFor(later!.deviceId)).getFirmware({});
    expect(none).toEqual({ update: null });
  }, 180_000);

  it('while one prepares, refuses a person’s advance and roll back and a device’s report, and leaves a device a rollout started meanwhile took to that one', async () => {
    const admin = await administrator();
    const fleet = await seedFleet(5);
    const release = await seedRelease({ results: ['Pass'] });
    const fixRelease = await seedRelease({ results: ['Pass'] });
    // Its first step held back: the rollout stays preparing until the test sends it (test/support/code-releases.ts).
    const { rollout, sendHeldStep } = await preparingRollout(release.id, fleet);
    expect(rollout).toMatchObject({ status: 'preparing', preparing: { assigned: 0, of: 5 } });

    const params = { params: { id: rollout.id } };
    const advance = await apiRejection(admin.advanceRollout({ ...params, body: {} }));
    expect([advance.status, advance.message]).toEqual([409, RELEASE_MESSAGES.rolloutNotActive('preparing')]);
    const back = await apiRejection(admin.rollbackRollout({ ...params, body: { reason: 'back' } }));
    expect([back.status, back.message]).toEqual([409, RELEASE_MESSAGES.rolloutPreparing]);
    const [canary] = await devicesOf(rollout.id, { stage: 0 });
    const device = apiAs('data-ingress', await credentialFor(canary!.deviceId));
    const report = await apiRejection(
      device.reportFirmwareStatus({
        body: { rolloutId: rollout.id, releaseId: release.id, state: 'downloading', at: Date.now() },
      }),
    );
    expect([report.status, report.message]).toEqual([409, RELEASE_MESSAGES.firmwareReportNotOffered(canary!.deviceId)]);
    expect(await device.getFirmware({})).toEqual({ update: null });

    // A fix for one of its devices starts meanwhile: the device is the fix's, whenever the preparing one gets to it.
    const taken = fleet.find((id) => id !== canary!.deviceId)!;
    const fix = await admin.createRollout({
      params: { id: fixRelease.id },
      body: { target: { kind: 'devices', deviceIds: [taken] }, stages: [{ percent: 100, soakSeconds: 0 }] },
    });
    await sendHeldStep();
    const active = await eventually(async () => {
      const found = await (await employee()).getRollout(params);
      return found.status === 'active' && found;
    });
    expect(active.counts).toEqual({ targeted: 5, adopted: 0, superseded: 1 });
    expect(active.stages.reduce((sum, stage) => sum + stage.counts.superseded, 0)).toBe(1);
    const records = await recordsOf(fleet);
    for (const id of fleet) {
      const pointsAt = (records.get(id)?.firmwareTarget as { rolloutId?: string } | undefined)?.rolloutId;
      expect([id, pointsAt]).toEqual([id, id === taken ? fix.id : rollout.id]);
    }
    const history = (records.get(taken)?.firmwareHistory ?? []) as { rolloutId: string }[];
    expect(history.map((entry) => entry.rolloutId)).toEqual([fix.id]);
    const listed = await devicesOf(rollout.id);
    expect(listed.find((d) => d.deviceId === taken)).toMatchObject({ state: 'superseded', superseded: fix.created });
    expect((await (await employee()).getRollout({ params: { id: fix.id } })).counts).toEqual({
      targeted: 1,
      adopted: 0,
      superseded: 0,
    });
    // Active now, its canary is offered the release.
    expect((await device.getFirmware({})).update).toMatchObject({ rolloutId: rollout.id });
  });

  it('halts one while it prepares, offering nothing; resumed, it goes on assigning and turns active', async () => {
    const admin = await administrator();
    const fleet = await seedFleet(3);
    // A release just below it, so the roll back is refused for what it found installed, not for a missing way back.
    const major = freshMajor();
    await seedRelease({ results: ['Pass'], version: `${major}.0.0` });
    const release = await seedRelease({ results: ['Pass'], version: `${major}.0.1` });
    const { rollout } = await preparingRollout(release.id, fleet);
    const params = { params: { id: rollout.id } };
    // Any staff member may halt, as an active rollout; only Administrators resume.
    const halted = await (await employee()).haltRollout({ ...params, body: { reason: 'wrong fleet' } });
    expect(halted).toMatchObject({
      status: 'halted',
      haltReason: 'wrong fleet',
      preparing: { assigned: 0, of: 3 },
    });
    expect(halted.stages.every((stage) => stage.started === undefined)).toBe(true);
    const again = await apiRejection(admin.haltRollout({ ...params, body: { reason: 'again' } }));
    expect([again.status, again.message]).toEqual([409, RELEASE_MESSAGES.rolloutHalted]);
    const back = await apiRejection(admin.rollbackRollout({ ...params, body: { reason: 'back' } }));
    expect([back.status, back.message]).toEqual([409, RELEASE_MESSAGES.rolloutNothingInstalled]);
    const [canary] = await devicesOf(rollout.id, { stage: 0 });
    const device = apiAs('data-ingress', await credentialFor(canary!.deviceId));
    expect(await device.getFirmware({})).toEqual({ update: null });

    // The resume queues its step on the stack's rollouts queue: the worker assigns the devices and makes it active.
    const resumed = await admin.resumeRollout(params);
    expect(resumed).toMatchObject({ status: 'preparing', preparing: { assigned: 0, of: 3 } });
    const active = await eventually(async () => {
      const found = await (await employee()).getRollout(params);
      return found.status === 'active' && found;
    });
    expect(active.counts).toEqual({ targeted: 3, adopted: 0, superseded: 0 });
    expect(active.stages[0]!.started).toBeGreaterThanOrEqual(resumed.resumed!);
    const records = await recordsOf(fleet);
    for (const id of fleet) {
      expect([id, (records.get(id)?.firmwareTarget as { rolloutId?: string } | undefined)?.rolloutId]).toEqual([
        id,
        rollout.id,
      ]);
    }
    expect((await device.getFirmware({})).update).toMatchObject({ rolloutId: rollout.id });
  });
});
