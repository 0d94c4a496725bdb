import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createSensorDataSender } from '../../../functions/_shared/sensor-data/queue-messages';
import { createReadingsStore } from '../../../functions/_shared/sensor-data/readings-store';
import { createDeviceSeenStore } from '../../../functions/data-ingress/store/device-seen-store';
import { createRollupStore } from '../../../functions/sensor-data/store/rollup-store';
import { eventually, freshDevice } from '../../support/sensor-data';
import { documentClient, sqsClient, stack } from '../../support/stack';

/**
 * Hourly roll-ups (ROLLUP_COALESCING=hour in the cloud, docs/decisions/042-hourly-roll-ups.md) through the real queue and
 * worker of the local stack: a message is put back until its `notBefore`, and a message sent before its hours'
 * recompute began is done without another. The local stack's own ingest rolls up at once, so the messages are sent
 * here as a coalescing ingest sends them.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const hourItem = async (deviceId: string, hour: number) =>
  (
    await documentClient().send(
      new GetCommand({ TableName: stack().tables.rollups!, Key: { pk: `${deviceId}#hour`, ts: hour } }),
    )
  ).Item;

/** The hour once a recompute has finished it: the done mark is written last, after the hour, its day and its charts. */
const doneHour = (deviceId: string, hour: number, timeoutMs?: number) =>
  eventually(async () => {
    const item = await hourItem(deviceId, hour);
    return typeof item?.doneAt === 'number' ? item : undefined;
  }, timeoutMs);

describe('coalesced roll-ups in the sensor-data worker', () => {
  const readings = () => createReadingsStore({ db: documentClient(), tableName: stack().tables.readings! });
  const work = () => createSensorDataSender({ sqs: sqsClient(), queueUrl: stack().queues.sensorData! });
  // 10:00 UTC five days back, whatever the time of the run: an hour and the next on one day.
  const hour = Math.floor((Date.now() - 5 * DAY) / DAY) * DAY + 10 * HOUR;

  it("waits for notBefore; a message sent before the hour's recompute began is done without another", async () => {
    const { id: deviceId } = await freshDevice();
    await readings().write(
      deviceId,
      [1, 2, 3].map((i) => ({ timestamp: hour + i * 60_000, values: { pm2_5: i } })),
      Date.now(),
    );
    const due = Date.now() + 4_000;
    // The device's FIFO group, in order: A and B, two messages of one hour due together, as an hour's batches send
    // them; X, another hour due later, between them, so B is worked a few seconds after A has recomputed the hour;
    // C, behind B, whose roll-up shows that B has been worked.
    await work().send([{ kind: 'rollup', deviceId, hours: [hour], notBefore: due }]);
    await work().send([{ kind: 'rollup', deviceId, hours: [hour + 2 * HOUR], notBefore: due + 6_000 }]);
    await work().send([{ kind: 'rollup', deviceId, hours: [hour], notBefore: due }]);
    await work().send([{ kind: 'rollup', deviceId, hours: [hour + HOUR], notBefore: due }]);
    await readings().write(
      deviceId,
      [
        { timestamp: hour + HOUR + 60_000, values: { pm2_5: 7 } },
        { timestamp: hour + 2 * HOUR + 60_000, values: { pm2_5: 8 } },
      ],
      Date.now(),
    );

    expect(await hourItem(deviceId, hour)).toBeUndefined();
    const first = await doneHour(deviceId, hour);
    expect(first.m.pm2_5).toEqual({ n: 3, s: 6, lo: 1, hi: 3 });
    // The recompute began once the message was due, not when it was first received.
    expect(first.doneAt).toBeGreaterThanOrEqual(due);

    // A repair written straight into the table after the recompute, with no message of its own: B must not pick it
    // up, since B's readings (written before B was sent and due) are already counted.
    if (Date.now() < due + 5_000) {
      await readings().write(deviceId, [{ timestamp: hour + 30 * 60_000, values: { pm2_5: 100 } }], Date.now());
    }
    const last = await doneHour(deviceId, hour + HOUR, 60_000);
    expect(last.m.pm2_5).toEqual({ n: 1, s: 7, lo: 7, hi: 7 });
    expect((await hourItem(deviceId, hour + 2 * HOUR))?.doneAt).toBeGreaterThanOrEqual(due + 6_000);
    expect(await hourItem(deviceId, hour)).toEqual(first);
  });

  it('the done marks: only an hour with a bucket is marked, read back strongly, and a recompute clears its mark', async () => {
    const { id: deviceId } = await freshDevice();
    const rollups = createRollupStore({ db: documentClient(), tableName: stack().tables.rollups! });
    await rollups.put(deviceId, 'hour', hour, { m: { pm10: { n: 1, s: 4, lo: 4, hi: 4 } } });
    await rollups.markDone(deviceId, [hour, hour + HOUR], 1_234);
    expect(await rollups.doneAt(deviceId, [hour, hour + HOUR])).toEqual(new Map([[hour, 1_234]]));
    // No empty bucket was made for the hour without values (charts would show it as a point).
    expect(await hourItem(deviceId, hour + HOUR)).toBeUndefined();
    await rollups.put(deviceId, 'hour', hour, { m: { pm10: { n: 2, s: 9, lo: 4, hi: 5 } } });
    expect(await rollups.doneAt(deviceId, [hour])).toEqual(new Map());
  });

  it("ingest's mark of the hour's message: read back by the next batch's own update, and never made for a device that is gone", async () => {
    const { id: deviceId } = await freshDevice();
    const devices = createDeviceSeenStore({ db: documentClient(), tableName: stack().tables.devices! });
    const seen = { lastSeen: hour, names: ['pm2_5'], units: {} };
    expect((await devices.markSeen(deviceId, seen))?.rollupSentFor).toBeUndefined();
    await devices.markRollupSent(deviceId, hour + HOUR + 60_000);
    expect((await devices.markSeen(deviceId, { ...seen, lastSeen: hour + 1 }))?.rollupSentFor).toBe(
      hour + HOUR + 60_000,
    );
    await devices.markRollupSent('dev-no-such-device', hour);
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: stack().tables.devices!, Key: { id: 'dev-no-such-device' } }),
    );
    expect(Item).toBeUndefined();
  });
});
