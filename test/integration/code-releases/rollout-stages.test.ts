import path from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { jest } from '@jest/globals';
import type { RolloutStages } from '../../../functions/code-releases/domain/rollout-stages';
import { SCHEDULED_JOBS } from '../../../infra/definitions/services';
import { startScheduler } from '../../../infra/local/scheduler';
import { RELEASE_MESSAGES } from '../../../shared/code-releases/messages';
import type { Rollout } from '../../../shared/contracts/code-releases';
import { firmwareStatusIngestTopic, firmwareStatusRuleName } from '../../../shared/iot/topics';
import { credentialFor, freshMajor, seedFleet, seedRelease } from '../../support/code-releases';
import { waitForBanner } from '../../support/notifications';
import { freshUser } from '../../support/people';
import { seedRelation } from '../../support/relations';
import { connectDevice, eventually, freshDevice, type TestDevice } from '../../support/sensor-data';
import { apiAs, apiRejection, documentClient, everyPage, stack, subOf, tokenOf, uniqueId } from '../../support/stack';
import { useStackEnvironment } from '../../support/stack-env';

/**
 * Staged rollouts through the local gateway (docs/code-releases.md, "Stages"), with a fixed clock: the stage job is run
 * here, in this process, as EventBridge runs it, at the times each test chooses (a day after a rollout started, an
 * hour after an offer); no test waits for time to pass. Reports carry the device's own time.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const administrator = async () => apiAs('code-releases', await tokenOf('admin@example.com'));
const employee = async () => apiAs('code-releases', await tokenOf('employee@example.com'));
const ingress = (credential: string) => apiAs('data-ingress', credential);
const offerTo = (credential: string) => ingress(credential).getFirmware({});
const report = (
  credential: string,
  rollout: Pick<Rollout, 'id' | 'releaseId'>,
  state: 'downloading' | 'installing' | 'succeeded' | 'failed' | 'rejected',
  at: number,
  reason?: string,
) =>
  ingress(credential).reportFirmwareStatus({
    body: { rolloutId: rollout.id, releaseId: rollout.releaseId, state, at, ...(reason ? { reason } : {}) },
  });
const rolloutNow = async (id: string) => (await employee()).getRollout({ params: { id } });
const devicesOf = async (id: string, query: { stage?: number; state?: string } = {}) =>
  everyPage(async (cursor) =>
    (await employee()).listRolloutDevices({
      params: { id },
      query: { limit: 100, ...(cursor ? { cursor } : {}), ...query } as never,
    }),
  );

let scheduler: Awaited<ReturnType<typeof startScheduler>>;
let restoreEnvironment: () => void;
const runStages = async (at: number) =>
  (await scheduler.run('RolloutStagesJob', new Date(at))) as Awaited<ReturnType<RolloutStages['run']>>;

beforeAll(async () => {
  restoreEnvironment = useStackEnvironment();
  // The job logs a line per run; the SQS client warns about the emulator's queue URL.
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
  jest.spyOn(console, 'info').mockImplementation(() => undefined);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  scheduler = await startScheduler({
    rootDir: path.resolve(import.meta.dirname, '../../..'),
    jobs: SCHEDULED_JOBS.filter((job) => job.name === 'RolloutStagesJob'),
  });
});

afterAll(async () => {
  await scheduler.stop();
  restoreEnvironment();
  jest.restoreAllMocks();
});

describe('staged rollouts: stages', () => {
  it('sizes the default stages and keeps their devices, offers only a started stage, and advances after the soak only once', async () => {
    const admin = await administrator();
    const release = await seedRelease({ results: ['Pass'] });
    const fleet = await seedFleet(40);
    const rollout = await admin.createRollout({
      params: { id: release.id },
      body: { target: { kind: 'devices', deviceIds: fleet } },
    });
    // Canary 1 % (at least one), 5 %, 25 %, 100 % of 40: one, one, eight, thirty; a day's soak each.
    expect(rollout.stages.map((s) => [s.name, s.devices, s.soakSeconds, s.counts.pending])).toEqual([
      ['Canary', 1, 86_400, 1],
      ['5 %', 1, 86_400, 1],
      ['25 %', 8, 86_400, 8],
      ['Everyone', 30, 86_400, 30],
    ]);
    const membership = async () =>
      Object.fromEntries((await devicesOf(rollout.id)).map((device) => [device.deviceId, device.stage]));
    const before = await membership();
    // Each stage's devices are one Query of the progress index, and each device's record names its stage.
    for (const stage of [0, 1, 2, 3]) {
      expect((await devicesOf(rollout.id, { stage })).map((d) => d.deviceId).sort()).toEqual(
        fleet.filter((id) => before[id] === stage).sort(),
      );
    }
    const record = await documentClient().send(
      new GetCommand({ TableName: stack().tables.devices!, Key: { id: fleet[7]! } }),
    );
    expect(record.Item!.firmwareTarget).toMatchObject({ rolloutId: rollout.id, stage: before[fleet[7]!] });

    const [canary] = fleet.filter((id) => before[id] === 0);
    const [second] = fleet.filter((id) => before[id] === 1);
    const [canaryCredential, secondCredential] = await Promise.all([credentialFor(canary!), credentialFor(second!)]);
    expect((await offerTo(canaryCredential)).update).toMatchObject({ rolloutId: rollout.id, version: release.version });
    expect(await offerTo(secondCredential)).toEqual({ update: null });
    expect((await rolloutNow(rollout.id)).stages[0]!.counts).toMatchObject({ pending: 0, offered: 1 });

    await report(canaryCredential, rollout, 'downloading', rollout.created + 60_000);
    await report(canaryCredential, rollout, 'succeeded', rollout.created + 120_000);
    // Not before its soak is over.
    expect((await runStages(rollout.created + DAY - 60_000)).advanced).toEqual([]);
    expect((await rolloutNow(rollout.id)).currentStage).toBe(0);
    // Two runs at once after the soak: the stage advances once.
    const after = rollout.created + DAY + 60_000;
    const [one, two] = await Promise.all([runStages(after), runStages(after)]);
    expect([...one.advanced, ...two.advanced].filter((a) => a.rolloutId === rollout.id)).toEqual([
      { rolloutId: rollout.id, stage: 1 },
    ]);
    const advanced = await rolloutNow(rollout.id);
    expect(advanced.currentStage).toBe(1);
    expect(advanced.stages[1]!.started).toBe(Math.floor(after / 1000) * 1000);
    expect((await offerTo(secondCredential)).update?.rolloutId).toBe(rollout.id);
    // Chosen once and kept: no device moved stage.
    expect(await membership()).toEqual(before);
  });

  it('refuses a stage that names a device outside the target, saying which device and stage, and starts nothing', async () => {
    const admin = await administrator();
    const release = await seedRelease({ results: ['Pass'] });
    const [inside, elsewhere] = await Promise.all([freshDevice(), freshDevice()]);
    const refused = await apiRejection(
      admin.createRollout({
        params: { id: release.id },
        body: {
          target: { kind: 'devices', deviceIds: [inside!.id] },
          stages: [
            { name: 'Lab bench', percent: 1, deviceIds: [elsewhere!.id], soakSeconds: 0 },
            { percent: 100, soakSeconds: 0 },
          ],
        },
      }),
    );
    expect([refused.status, refused.message]).toEqual([
      400,
      `Device ${elsewhere!.id}, named in stage Lab bench, is not in the rollout's target`,
    ]);
    expect((await (await employee()).listRollouts({ params: { id: release.id } })).items).toEqual([]);
    // Neither device was pointed at the release: the one outside is not offered it, nor the one inside.
    expect(await offerTo(elsewhere!.credential)).toEqual({ update: null });
    expect(await offerTo(inside!.credential)).toEqual({ update: null });
  });

  it('does not advance a soaked stage whose failures reach the threshold: it halts it instead', async () => {
    const admin = await administrator();
    const release = await seedRelease({ results: ['Pass'] });
    const [a, b, c] = await Promise.all([freshDevice(), freshDevice(), freshDevice()]);
    const rollout = await admin.createRollout({
      params: { id: release.id },
      body: {
        target: { kind: 'devices', deviceIds: [a!.id, b!.id, c!.id] },
        stages: [
          { name: 'Pilot', percent: 50, deviceIds: [a!.id, b!.id], soakSeconds: 3_600 },
          { percent: 100, soakSeconds: 3_600 },
        ],
        abort: { failureThresholdPercent: 15, minFinished: 2 },
      },
    });
    await offerTo(a!.credential);
    await report(a!.credential, rollout, 'failed', rollout.created + 60_000, 'boot loop');
    // One of two finished: not enough to judge, so neither halted nor, after the soak, advanced.
    expect((await rolloutNow(rollout.id)).status).toBe('active');
    expect((await runStages(rollout.created + 2 * HOUR)).advanced).toEqual([]);
    await offerTo(b!.credential);
    await report(b!.credential, rollout, 'succeeded', rollout.created + 120_000);
    // One failure of two finished makes a failure rate of 15 % or more 90 % sure (Wilson's bound is 16.5 %): not under
    // the threshold, so the job halts the stage rather than advance it.
    await runStages(rollout.created + 2 * HOUR + 60_000);
    const judged = await rolloutNow(rollout.id);
    expect(judged).toMatchObject({ status: 'halted', haltedBy: 'automatic', currentStage: 0 });
    expect(await offerTo(c!.credential)).toEqual({ update: null });
  });

  it('times out a device offered longer ago than the timeout, and takes its late success over the timeout', async () => {
    const admin = await administrator();
    const release = await seedRelease({ results: ['Pass'] });
    const [slow, quick] = await Promise.all([freshDevice(), freshDevice()]);
    const rollout = await admin.createRollout({
      params: { id: release.id },
      body: {
        target: { kind: 'devices', deviceIds: [slow!.id, quick!.id] },
        stages: [{ percent: 100, soakSeconds: 0 }],
        abort: { failureThresholdPercent: 100, minFinished: 2, timeoutSeconds: 600 },
      },
    });
    await offerTo(slow!.credential);
    const offered = (await devicesOf(rollout.id, { state: 'offered' }))[0]!;
    expect(offered.deviceId).toBe(slow!.id);
    // Ten minutes after the offer, less a second: on its way still; ten minutes and a second: timed out.
    await runStages(offered.offered! + 600_000 - 1_000);
    expect((await devicesOf(rollout.id, { state: 'timed_out' })).length).toBe(0);
    const run = await runStages(offered.offered! + 600_000 + 1_000);
    expect(run.timedOut).toBe(1);
    expect((await devicesOf(rollout.id, { state: 'timed_out' })).map((d) => d.deviceId)).toEqual([slow!.id]);
    // It reports, late, that it installed in time: the report of an outcome outranks the timeout.
    expect(await report(slow!.credential, rollout, 'succeeded', offered.offered! + 300_000)).toEqual({
      rolloutId: rollout.id,
      state: 'succeeded',
      recorded: true,
    });
    expect((await rolloutNow(rollout.id)).stages[0]!.counts).toMatchObject({ succeeded: 1, timed_out: 0, pending: 1 });
  });
});

describe('staged rollouts: halting, resuming, rolling back', () => {
  it('halts itself on the N-th failure, stops offers at the next poll, tells staff and managers which devices failed and why, resumes, and rolls back to the devices that installed it', async () => {
    const admin = await administrator();
    const major = freshMajor();
    const previous = await seedRelease({ results: ['Pass'], version: `${major}.0.0` });
    const release = await seedRelease({ results: ['Pass'], version: `${major}.0.1` });
    const devices = await Promise.all(Array.from({ length: 6 }, () => freshDevice()));
    const [d1, d2, d3, d4, d5, d6] = devices as [
      TestDevice,
      TestDevice,
      TestDevice,
      TestDevice,
      TestDevice,
      TestDevice,
    ];
    const manager = await freshUser({ prefix: 'fw-manager' });
    const organization = uniqueId('fw-org');
    await seedRelation('organization-manager', organization, manager.id);
    await seedRelation('organization-device', organization, d1.id);
    const rollout = await admin.createRollout({
      params: { id: release.id },
      body: {
        target: { kind: 'devices', deviceIds: devices.map((d) => d.id) },
        stages: [
          { name: 'Canary', percent: 50, deviceIds: [d1.id, d2.id, d3.id, d4.id], soakSeconds: 3_600 },
          { percent: 100, soakSeconds: 3_600 },
        ],
        abort: { failureThresholdPercent: 30, minFinished: 3 },
      },
    });
    expect(rollout.stages.map((s) => s.devices)).toEqual([4, 2]);
    const t = rollout.created;
    for (const device of [d1, d2, d3, d4]) expect((await offerTo(device.credential)).update).not.toBeNull();
    expect(await offerTo(d5.credential)).toEqual({ update: null });
    await report(d4.credential, rollout, 'downloading', t + 10_000);
    await report(d1.credential, rollout, 'failed', t + 20_000, 'flash write error at 0x4000');
    await report(d2.credential, rollout, 'succeeded', t + 30_000);
    // Two of three needed have finished: still active, and d4 (on its way) is still offered.
    expect((await rolloutNow(rollout.id)).status).toBe('active');
    expect((await offerTo(d4.credential)).update).not.toBeNull();
    // The third finished device fails: 2 of 3 make a failure rate of 30 % or more 90 % sure (Wilson's bound is 32 %),
    // and the rollout halts with that very report.
    await report(d3.credential, rollout, 'failed', t + 40_000, 'signature rejected by bootloader');
    const halted = await rolloutNow(rollout.id);
    expect(halted).toMatchObject({ status: 'halted', haltedBy: 'automatic' });
    expect(halted.haltReason).toBe(
      'Halted automatically: in stage Canary, 2 of 3 finished devices failed or timed out ' +
        '(67 %: its failure rate is at least the threshold, 30 %, with 90 % confidence)',
    );
    expect(halted.stages[0]!.counts).toMatchObject({ failed: 2, succeeded: 1, downloading: 1 });
    // The very next poll of a device on its way gets nothing.
    expect(await offerTo(d4.credential)).toEqual({ update: null });
    const failed = await devicesOf(rollout.id, { state: 'failed' });
    expect(Object.fromEntries(failed.map((d) => [d.deviceId, d.reason]))).toEqual({
      [d1.id]: 'flash write error at 0x4000',
      [d3.id]: 'signature rejected by bootloader',
    });

    // The stage job announces it: the person who started it, and the managers of the organization holding d1.
    await runStages(t + 5 * 60_000);
    const title = `Firmware update sd1 ${release.version} halted automatically`;
    const staffBanner = await waitForBanner(await subOf('admin@example.com'), (b) => b.title === title);
    expect(staffBanner.body).toContain(`${d1.id}</a>: failed: flash write error at 0x4000`);
    expect(staffBanner.body).toContain(`${d3.id}</a>: failed: signature rejected by bootloader`);
    const managerBanner = await waitForBanner(manager.id, (b) => b.title === title);
    expect(managerBanner.body).toContain(`${d1.id}</a>: failed: flash write error at 0x4000`);
    expect(managerBanner.body).not.toContain(d3.id);

    // Resumed, offers start again, and the failures seen are set aside: one more failure alone does not halt it.
    const resumed = await admin.resumeRollout({ params: { id: rollout.id } });
    expect(resumed).toMatchObject({ status: 'active', resumedBy: await subOf('admin@example.com') });
    expect((await offerTo(d4.credential)).update).not.toBeNull();
    await report(d4.credential, rollout, 'failed', t + 50_000, 'power loss');
    expect((await rolloutNow(rollout.id)).status).toBe('active');

    // Rolled back: the previous release is offered only to d2, the one device that installed this one.
    const rolledBack = await admin.rollbackRollout({
      params: { id: rollout.id },
      body: { reason: 'Boot loops on rev B boards' },
    });
    expect(rolledBack).toMatchObject({
      status: 'rolled-back',
      rollback: { releaseId: previous.id, version: previous.version, devices: 1 },
    });
    const back = await rolloutNow(rolledBack.rollback!.rolloutId);
    expect(back).toMatchObject({ releaseId: previous.id, rollbackOf: rollout.id, target: { deviceIds: [d2.id] } });
    expect((await offerTo(d2.credential)).update).toMatchObject({
      rolloutId: back.id,
      releaseId: previous.id,
      version: previous.version,
      sha256: previous.artifact!.sha256,
    });
    for (const device of [d1, d3, d4, d5, d6]) expect(await offerTo(device.credential)).toEqual({ update: null });
    const again = await apiRejection(admin.rollbackRollout({ params: { id: rollout.id }, body: { reason: 'x' } }));
    expect([again.status, again.message]).toEqual([409, RELEASE_MESSAGES.rolloutRolledBack]);
    // The device's page lists both updates, newest first, with what became of each.
    const history = await apiAs('devices', d2.ownerToken).listFirmwareUpdates({ params: { id: d2.id } });
    expect(history.items.map((entry) => [entry.releaseId, entry.state])).toEqual([
      [previous.id, 'offered'],
      [release.id, 'succeeded'],
    ]);
  });

  it('with the default criteria, goes on after one failure among a stage’s first finished devices and halts on a second within its first 8', async () => {
    const admin = await administrator();
    const release = await seedRelease({ results: ['Pass'] });
    const fleet = await seedFleet(9);
    const rollout = await admin.createRollout({
      params: { id: release.id },
      body: { target: { kind: 'devices', deviceIds: fleet }, stages: [{ percent: 100, soakSeconds: 0 }] },
    });
    expect(rollout.abort).toEqual({ failureThresholdPercent: 10, minFinished: 5, timeoutSeconds: 21_600 });
    const credentials = await Promise.all(fleet.map((id) => credentialFor(id)));
    for (const credential of credentials) expect((await offerTo(credential)).update).not.toBeNull();
    const t = rollout.created;
    await report(credentials[0]!, rollout, 'failed', t + 10_000, 'boot check failed');
    for (const [i, credential] of credentials.slice(1, 6).entries()) {
      await report(credential, rollout, 'succeeded', t + 20_000 + i * 1_000);
    }
    // 1 of 6 finished failed (17 %): the share rule of decision 077 halted here. The stage job judges the stage (as
    // the write path did at the failure) and it goes on.
    await runStages(t + 60_000);
    expect((await rolloutNow(rollout.id)).status).toBe('active');
    expect((await offerTo(credentials[8]!)).update).not.toBeNull();
    await report(credentials[6]!, rollout, 'failed', t + 40_000, 'flash write error');
    const halted = await rolloutNow(rollout.id);
    expect(halted).toMatchObject({ status: 'halted', haltedBy: 'automatic' });
    expect(halted.haltReason).toBe(
      'Halted automatically: in stage 100 %, 2 of 7 finished devices failed or timed out ' +
        '(29 %: its failure rate is at least the threshold, 10 %, with 90 % confidence)',
    );
    expect(await offerTo(credentials[8]!)).toEqual({ update: null });
  });

  it('advances by hand once for two presses at once, and refuses to advance a halted rollout', async () => {
    const admin = await administrator();
    const release = await seedRelease({ results: ['Pass'] });
    const fleet = await seedFleet(10);
    const rollout = await admin.createRollout({
      params: { id: release.id },
      body: { target: { kind: 'devices', deviceIds: fleet } },
    });
    const presses = await Promise.allSettled([
      admin.advanceRollout({ params: { id: rollout.id }, body: { fromStage: 0 } }),
      admin.advanceRollout({ params: { id: rollout.id }, body: { fromStage: 0 } }),
    ]);
    expect(presses.map((p) => p.status).sort()).toEqual(['fulfilled', 'rejected']);
    // Ten devices: the canary holds one and 5 % adds none, so "advance" starts the 25 % stage.
    expect((await rolloutNow(rollout.id)).currentStage).toBe(2);
    await (await employee()).haltRollout({ params: { id: rollout.id }, body: { reason: 'Looks wrong' } });
    const refused = await apiRejection(admin.advanceRollout({ params: { id: rollout.id }, body: {} }));
    expect([refused.status, refused.message]).toEqual([409, RELEASE_MESSAGES.rolloutNotActive('halted')]);
    // Employees halt; only Administrators advance, resume and roll back.
    const employeeResume = await apiRejection((await employee()).resumeRollout({ params: { id: rollout.id } }));
    expect(employeeResume.status).toBe(403);
  });
});

describe('staged rollouts: what devices report', () => {
  it('takes reports in any order and repeated alike, and refuses reports on a rollout the device is not in', async () => {
    const admin = await administrator();
    const release = await seedRelease({ results: ['Pass'] });
    const [device, stranger] = await Promise.all([freshDevice(), freshDevice()]);
    const rollout = await admin.createRollout({
      params: { id: release.id },
      body: { target: { kind: 'devices', deviceIds: [device!.id] }, stages: [{ percent: 100, soakSeconds: 0 }] },
    });
    await offerTo(device!.credential);
    const t = rollout.created;
    const answers = [];
    for (const [state, at] of [
      ['succeeded', t + 3_000],
      ['installing', t + 2_000],
      ['downloading', t + 1_000],
      ['succeeded', t + 3_000],
    ] as const) {
      answers.push(await report(device!.credential, rollout, state, at));
    }
    expect(answers.map((a) => [a.state, a.recorded])).toEqual([
      ['succeeded', true],
      ['succeeded', false],
      ['succeeded', false],
      ['succeeded', false],
    ]);
    const counts = (await rolloutNow(rollout.id)).stages[0]!.counts;
    expect(counts).toMatchObject({ offered: 0, downloading: 0, installing: 0, succeeded: 1 });
    // Succeeding is running the release: adoption counts it and the device's record says so.
    expect((await rolloutNow(rollout.id)).counts.adopted).toBe(1);
    expect((await apiAs('devices', device!.ownerToken).get({ params: { id: device!.id } })).firmwareVersion).toBe(
      release.version,
    );
    expect(await offerTo(device!.credential)).toEqual({ update: null });

    // Another device's credential cannot report on this rollout: it is not in it.
    const notIn = await apiRejection(report(stranger!.credential, rollout, 'failed', t + 4_000));
    expect([notIn.status, notIn.message]).toEqual([
      404,
      `Device ${stranger!.id} is not in rollout ${rollout.id}: report the rollout its firmware offer named`,
    ]);
    const otherRelease = await apiRejection(
      ingress(device!.credential).reportFirmwareStatus({
        body: { rolloutId: rollout.id, releaseId: 'sd1-0.0.1', state: 'failed', at: t + 4_000 },
      }),
    );
    expect(otherRelease.status).toBe(400);
    const badState = await apiRejection(
      ingress(device!.credential).reportFirmwareStatus({
        body: { rolloutId: rollout.id, releaseId: release.id, state: 'exploded' as never, at: t },
      }),
    );
    expect([badState.status, badState.body.issues?.[0]?.message]).toEqual([
      400,
      'state must be one of: downloading, installing, succeeded, failed, rejected',
    ]);
  });

  it('takes the same report over MQTT through Basic Ingest, and only from the device itself', async () => {
    const admin = await administrator();
    const release = await seedRelease({ results: ['Pass'] });
    const [device, other] = await Promise.all([freshDevice(), freshDevice()]);
    const rollout = await admin.createRollout({
      params: { id: release.id },
      body: { target: { kind: 'devices', deviceIds: [device!.id] }, stages: [{ percent: 100, soakSeconds: 0 }] },
    });
    await offerTo(device!.credential);
    const connect = (as: TestDevice) => connectDevice(as);
    const payload = (state: string, at: number, reason?: string) =>
      JSON.stringify({ rolloutId: rollout.id, releaseId: release.id, state, at, ...(reason ? { reason } : {}) });
    const rule = firmwareStatusRuleName('local');
    const intruder = await connect(other!);
    try {
      // Another device's connection may not publish on this device's topic: the broker refuses it. (Had it got through,
      // its later success would outrank the device's own failure below.)
      await Promise.race([
        intruder
          .publishAsync(firmwareStatusIngestTopic(rule, device!.id), payload('succeeded', rollout.created + 5_000), {
            qos: 1,
          })
          .catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 1_500)),
      ]);
    } finally {
      intruder.end(true);
    }
    const client = await connect(device!);
    try {
      await client.publishAsync(
        firmwareStatusIngestTopic(rule, device!.id),
        payload('failed', rollout.created + 1_000, 'not enough flash'),
        { qos: 1 },
      );
      const failed = await eventually(async () => {
        const [found] = await devicesOf(rollout.id, { state: 'failed' });
        return found;
      });
      expect([failed.deviceId, failed.reason, failed.stateAt]).toEqual([
        device!.id,
        'not enough flash',
        rollout.created + 1_000,
      ]);
      expect((await rolloutNow(rollout.id)).stages[0]!.counts).toMatchObject({ failed: 1, succeeded: 0 });
    } finally {
      await client.endAsync();
    }
  });
});
