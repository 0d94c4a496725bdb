import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { RELEASE_MESSAGES } from '../../../shared/code-releases/messages';
import type { Rollout } from '../../../shared/contracts/code-releases';
import { firmwareBytes, freshVersion, seedRelease, sha256Of, uploadArtifact } from '../../support/code-releases';
import { seedRelation } from '../../support/relations';
import { connectDevice, freshDevice, type TestDevice } from '../../support/sensor-data';
import {
  apiAs,
  apiRejection,
  documentClient,
  everyPage,
  s3Client,
  stack,
  tokenOf,
  uniqueId,
} from '../../support/stack';

const employee = async () => apiAs('code-releases', await tokenOf('employee@example.com'));
const administrator = async () => apiAs('code-releases', await tokenOf('admin@example.com'));

const objectExists = async (key: string) => {
  try {
    await s3Client().send(new HeadObjectCommand({ Bucket: stack().buckets.releases!, Key: key }));
    return true;
  } catch {
    return false;
  }
};

const deviceRecord = async (id: string) =>
  (await documentClient().send(new GetCommand({ TableName: stack().tables.devices!, Key: { id } }))).Item!;

/** A batch as a device sends it, with the firmware it runs. */
const report = (device: TestDevice, firmwareVersion: string, at = Date.now() - 1_000) =>
  apiAs('data-ingress', device.credential).ingestReadings({
    body: { readings: [{ timestamp: at, values: { pm2_5: 4 } }], firmwareVersion },
  });

const rolloutOf = async (releaseId: string, id: string): Promise<Rollout> => {
  const { items } = await (await employee()).listRollouts({ params: { id: releaseId } });
  return items.find((rollout) => rollout.id === id)!;
};

describe('code releases: releases and their artifacts', () => {
  it('creates a draft once per product line and version, and refuses what is not a semantic version', async () => {
    const api = await employee();
    const version = freshVersion();
    const release = await api.createRelease({ body: { productLine: 'al30', version, notes: 'Faster boot\nFixes' } });
    expect(release).toMatchObject({ id: `al30-${version}`, status: 'draft', notes: 'Faster boot\nFixes' });
    const again = await apiRejection(api.createRelease({ body: { productLine: 'al30', version } }));
    expect([again.status, again.message]).toEqual([409, RELEASE_MESSAGES.releaseExists('al30', version)]);
    // The same version of another product line is another release.
    expect((await api.createRelease({ body: { productLine: 'sd1', version } })).id).toBe(`sd1-${version}`);
    for (const bad of ['1.4', 'v1.4.2', '1.4.2+build.5']) {
      expect((await apiRejection(api.createRelease({ body: { productLine: 'sd1', version: bad } }))).status).toBe(400);
    }
    const listed = await everyPage((cursor) =>
      api.listReleases({ query: { productLine: 'al30', limit: 100, cursor } }),
    );
    expect(listed.map((item) => item.id)).toContain(release.id);
  });

  it('verifies the uploaded artifact by its SHA-256: a mismatch is refused and deleted, a match publishes the release for good', async () => {
    const api = await employee();
    const token = await tokenOf('employee@example.com');
    const release = await api.createRelease({ body: { productLine: 'sd1', version: freshVersion() } });
    // No test run before there are bytes to test.
    const early = await apiRejection(
      api.createTestRun({ params: { id: release.id }, body: { status: 'Pass', name: 'Bench' } }),
    );
    expect(early.status).toBe(409);
    expect(early.message).toContain('is a draft');

    const bytes = firmwareBytes();
    const wrongKey = await uploadArtifact(token, release.id, bytes);
    const mismatch = await apiRejection(
      api.setArtifact({
        params: { id: release.id },
        body: { key: wrongKey, fileName: 'fw.bin', sha256: sha256Of(Buffer.from('other')) },
      }),
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.message).toBe(
      RELEASE_MESSAGES.releaseArtifactMismatch(sha256Of(Buffer.from('other')), sha256Of(bytes)),
    );
    expect(await objectExists(wrongKey)).toBe(false);
    expect((await api.getRelease({ params: { id: release.id } })).status).toBe('draft');

    const key = await uploadArtifact(token, release.id, bytes);
    const published = await api.setArtifact({
      params: { id: release.id },
      body: { key, fileName: 'fw.bin', sha256: sha256Of(bytes).toUpperCase() },
    });
    expect(published).toMatchObject({
      status: 'published',
      artifact: { key, fileName: 'fw.bin', size: bytes.length, sha256: sha256Of(bytes) },
    });
    const detail = await api.getRelease({ params: { id: release.id } });
    const served = Buffer.from(await (await fetch(detail.artifactUrl!)).arrayBuffer());
    expect(sha256Of(served)).toBe(sha256Of(bytes));

    // Immutable once published: its notes, its artifact, its existence.
    const message = RELEASE_MESSAGES.releasePublished('sd1', release.version);
    for (const change of [
      () => api.updateRelease({ params: { id: release.id }, body: { notes: 'changed' } }),
      () => api.createArtifactUpload({ params: { id: release.id }, body: { size: 10 } }),
      () => api.setArtifact({ params: { id: release.id }, body: { key, fileName: 'fw.bin' } }),
      () => api.deleteRelease({ params: { id: release.id } }),
    ]) {
      const refused = await apiRejection(change());
      expect([refused.status, refused.message]).toEqual([409, message]);
    }
  });

  it('records the SHA-256 it computed when none was given, and refuses a key of another release', async () => {
    const api = await employee();
    const token = await tokenOf('employee@example.com');
    const [one, two] = await Promise.all([
      api.createRelease({ body: { productLine: 'al60', version: freshVersion() } }),
      api.createRelease({ body: { productLine: 'al60', version: freshVersion() } }),
    ]);
    const bytes = firmwareBytes();
    const key = await uploadArtifact(token, one!.id, bytes);
    const refused = await apiRejection(api.setArtifact({ params: { id: two!.id }, body: { key, fileName: 'fw.bin' } }));
    expect([refused.status, refused.message]).toEqual([400, RELEASE_MESSAGES.releaseArtifactKey]);
    const published = await api.setArtifact({ params: { id: one!.id }, body: { key, fileName: 'fw.bin' } });
    expect(published.artifact?.sha256).toBe(sha256Of(bytes));
    // A draft goes with its uploads.
    const draftKey = await uploadArtifact(token, two!.id, bytes);
    await api.deleteRelease({ params: { id: two!.id } });
    expect(await objectExists(draftKey)).toBe(false);
    expect((await apiRejection(api.getRelease({ params: { id: two!.id } }))).status).toBe(404);
  });
});

describe('code releases: test runs gate rollouts', () => {
  it('refuses a rollout until a pass, allows it after, and refuses again after a later failure', async () => {
    const api = await employee();
    const admin = await administrator();
    const release = await seedRelease();
    const device = await freshDevice();
    const rollout = () =>
      admin.createRollout({
        params: { id: release.id },
        body: { target: { kind: 'devices', deviceIds: [device.id] } },
      });

    const untested = await apiRejection(rollout());
    expect([untested.status, untested.message]).toEqual([
      409,
      `SD1 ${release.version} has no passing test run: record a passing test run before rolling it out.`,
    ]);

    const failed = await api.createTestRun({
      params: { id: release.id },
      body: { status: 'Fail', name: 'Hardware in the loop', log: 'boot loop on rev B' },
    });
    expect(failed).toMatchObject({ status: 'Fail', ranByEmail: 'employee@example.com', finished: expect.any(Number) });
    expect((await apiRejection(rollout())).message).toContain('the latest failed');
    expect((await api.getRelease({ params: { id: release.id } })).gate).toMatchObject({ open: false, code: 'failed' });

    const running = await api.createTestRun({
      params: { id: release.id },
      body: { status: 'InProgress', name: 'Soak test' },
    });
    expect(running.finished).toBeUndefined();
    // In progress is no result: still shut.
    expect((await apiRejection(rollout())).status).toBe(409);
    const passed = await api.concludeTestRun({
      params: { id: release.id, runId: running.id },
      body: { status: 'Pass', log: '72 h without a reset' },
    });
    expect(passed).toMatchObject({ status: 'Pass', log: '72 h without a reset', concludedBy: expect.any(String) });
    const concludedAgain = await apiRejection(
      api.concludeTestRun({ params: { id: release.id, runId: running.id }, body: { status: 'Fail' } }),
    );
    expect([concludedAgain.status, concludedAgain.message]).toEqual([409, RELEASE_MESSAGES.testRunConcluded]);
    expect((await api.getRelease({ params: { id: release.id } })).gate).toEqual({
      open: true,
      passedRunId: running.id,
    });

    const started = await rollout();
    expect(started).toMatchObject({ status: 'active', counts: { targeted: 1, adopted: 0 }, targetLabel: device.id });
    const runs = await api.listTestRuns({ params: { id: release.id } });
    expect(runs.items.map((run) => run.id)).toEqual([running.id, failed.id]);
    // Every suite adds sd1 releases of random versions to the one stack: this one may sit on any page.
    const listed = await everyPage((cursor) => api.listReleases({ query: { productLine: 'sd1', limit: 100, cursor } }));
    expect(listed.find((r) => r.id === release.id)?.verdict).toMatchObject({ status: 'Pass', runId: running.id });

    await api.createTestRun({ params: { id: release.id }, body: { status: 'Fail', name: 'Regression' } });
    const again = await apiRejection(rollout());
    expect([again.status, again.message]).toEqual([
      409,
      `The latest test run of SD1 ${release.version} failed after an earlier pass: record a new passing test run before rolling it out.`,
    ]);
  });
});

describe('code releases: rollouts and adoption', () => {
  it('assigns the devices of its product line, counts adoption from what devices report, and supersedes an earlier rollout', async () => {
    const admin = await administrator();
    const api = await employee();
    const first = await seedRelease({ results: ['Pass'] });
    const [a, b, other] = await Promise.all([freshDevice(), freshDevice(), freshDevice({ productLine: 'al30' })]);
    // `b` already runs the release: it counts at once.
    await report(b!, first.version);

    const rollout = await admin.createRollout({
      params: { id: first.id },
      body: { target: { kind: 'devices', deviceIds: [a!.id, b!.id, other!.id, 'dev-no-such-device'] }, note: 'Pilot' },
    });
    expect(rollout).toMatchObject({
      createdByEmail: 'admin@example.com',
      status: 'active',
      // The default stages: a canary of one of the two devices (the one to update), then the other with everyone.
      stages: [
        { percent: 1, devices: 1 },
        { percent: 5, devices: 0 },
        { percent: 25, devices: 0 },
        { percent: 100, devices: 1 },
      ],
      counts: { targeted: 2, adopted: 1, superseded: 0 },
      skipped: { otherProductLine: 1, retired: 0, unknown: 1 },
      note: 'Pilot',
    });
    // The owner's device page shows the release it was targeted with.
    const seen = await apiAs('devices', a!.ownerToken).get({ params: { id: a!.id } });
    expect(seen.firmwareTarget).toMatchObject({ releaseId: first.id, rolloutId: rollout.id, version: first.version });

    await report(a!, first.version);
    expect((await rolloutOf(first.id, rollout.id)).counts.adopted).toBe(2);
    const record = await deviceRecord(a!.id);
    expect([record.firmwareVersion, typeof record.firmwareReported]).toEqual([first.version, 'number']);
    // The same report again changes nothing; a rollback uncounts the device, whose update had succeeded.
    await report(a!, first.version);
    expect((await rolloutOf(first.id, rollout.id)).counts.adopted).toBe(2);
    await report(a!, '1.0.0');
    expect((await rolloutOf(first.id, rollout.id)).counts.adopted).toBe(1);
    const devices = await api.listRolloutDevices({ params: { id: rollout.id } });
    expect(Object.fromEntries(devices.items.map((d) => [d.deviceId, [d.state, d.reportedVersion]]))).toEqual({
      [a!.id]: ['succeeded', '1.0.0'],
      [b!.id]: ['succeeded', first.version],
    });
    // Whatever the rollout's id: the skipped devices take no stage's place, and `b`, which has nothing to install, comes
    // after `a` (docs/code-releases.md, "Stages").
    expect(Object.fromEntries(devices.items.map((d) => [d.deviceId, d.stage]))).toEqual({ [a!.id]: 0, [b!.id]: 3 });

    // A later release to an organization that holds `b` takes it over from the first rollout.
    const second = await seedRelease({ results: ['Fail', 'Pass'] });
    const organization = await apiAs('organizations', await tokenOf('admin@example.com')).create({
      body: { name: uniqueId('Rollout org') },
    });
    await seedRelation('organization-device', organization.id, b!.id);
    const wide = await admin.createRollout({
      params: { id: second.id },
      body: { target: { kind: 'organization', organizationId: organization.id } },
    });
    expect(wide).toMatchObject({ targetLabel: organization.name, counts: { targeted: 1, adopted: 0 } });
    expect((await rolloutOf(first.id, rollout.id)).counts).toEqual({ targeted: 2, adopted: 0, superseded: 1 });
    expect((await deviceRecord(b!.id)).firmwareTarget).toMatchObject({ rolloutId: wide.id });

    // A device reporting over MQTT is counted the same way.
    const client = await connectDevice(b!);
    try {
      await client.publishAsync(
        `devices/${b!.id}/readings`,
        JSON.stringify({
          readings: [{ timestamp: Date.now() - 500, values: { pm2_5: 5 } }],
          firmwareVersion: second.version,
        }),
        { qos: 1 },
      );
      for (let i = 0; i < 60 && (await rolloutOf(second.id, wide.id)).counts.adopted === 0; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect((await rolloutOf(second.id, wide.id)).counts.adopted).toBe(1);
    } finally {
      await client.endAsync();
    }
  });

  it('refuses a target that holds no device of the line or does not exist, and halts once', async () => {
    const admin = await administrator();
    const api = await employee();
    const release = await seedRelease({ productLine: 'al80', results: ['Pass'] });
    const sd1 = await freshDevice();
    const none = await apiRejection(
      admin.createRollout({ params: { id: release.id }, body: { target: { kind: 'devices', deviceIds: [sd1.id] } } }),
    );
    expect([none.status, none.message]).toEqual([400, RELEASE_MESSAGES.rolloutNoDevices('al80', sd1.id)]);
    expect((await api.listRollouts({ params: { id: release.id } })).items).toEqual([]);
    const missing = await apiRejection(
      admin.createRollout({
        params: { id: release.id },
        body: { target: { kind: 'campaign', campaignId: 'no-such-campaign' } },
      }),
    );
    expect([missing.status, missing.message]).toEqual([
      400,
      RELEASE_MESSAGES.rolloutTargetMissing('campaign', 'no-such-campaign'),
    ]);

    const device = await freshDevice({ productLine: 'al80' });
    const rollout = await admin.createRollout({
      params: { id: release.id },
      body: { target: { kind: 'devices', deviceIds: [device.id] } },
    });
    const halted = await api.haltRollout({
      params: { id: rollout.id },
      body: { reason: 'Battery drain on field units' },
    });
    expect(halted).toMatchObject({
      status: 'halted',
      haltReason: 'Battery drain on field units',
      halted: expect.any(Number),
    });
    const again = await apiRejection(api.haltRollout({ params: { id: rollout.id }, body: { reason: 'again' } }));
    expect([again.status, again.message]).toEqual([409, RELEASE_MESSAGES.rolloutHalted]);
    expect(
      (await apiRejection(api.haltRollout({ params: { id: 'no-such-rollout' }, body: { reason: 'x' } }))).status,
    ).toBe(404);
  });

  it('offers a targeted device its release with a download while the rollout is active, and nothing once halted or installed', async () => {
    const admin = await administrator();
    const release = await seedRelease({ results: ['Pass'] });
    const [device, bystander] = await Promise.all([freshDevice(), freshDevice()]);
    const offerTo = (d: TestDevice) => apiAs('data-ingress', d.credential).getFirmware({});
    expect(await offerTo(device)).toEqual({ update: null });

    const rollout = await admin.createRollout({
      params: { id: release.id },
      body: { target: { kind: 'devices', deviceIds: [device.id] } },
    });
    const { update } = await offerTo(device);
    expect(update).toMatchObject({
      releaseId: release.id,
      rolloutId: rollout.id,
      version: release.version,
      sha256: release.artifact!.sha256,
      size: release.artifact!.size,
    });
    const downloaded = Buffer.from(await (await fetch(update!.url)).arrayBuffer());
    expect(sha256Of(downloaded)).toBe(release.artifact!.sha256);
    expect(await offerTo(bystander)).toEqual({ update: null });

    await (await employee()).haltRollout({ params: { id: rollout.id }, body: { reason: 'Stop' } });
    expect(await offerTo(device)).toEqual({ update: null });

    const again = await admin.createRollout({
      params: { id: release.id },
      body: { target: { kind: 'devices', deviceIds: [device.id] } },
    });
    expect((await offerTo(device)).update?.rolloutId).toBe(again.id);
    await report(device, release.version);
    expect(await offerTo(device)).toEqual({ update: null });
  });
});
