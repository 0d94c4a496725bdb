import { GetObjectCommand } from '@aws-sdk/client-s3';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { dayOf, type ReadingsItem, readingsOf } from '../../functions/_shared/sensor-data/readings-store';
import type { ChartObject } from '../../functions/sensor-data/domain/ports';
import type { RollupItem } from '../../functions/sensor-data/domain/rollups';
import type { ProductLine } from '../../shared/contracts/devices';
import type { TierId } from '../../shared/sensor-data/tiers';
import { freshSerial } from './authz-devices-fixtures';
import { apiAs, type DemoEmail, documentClient, s3Client, stack, tokenOf } from './stack';

/**
 * Sensor-data test support: a device of a chosen product line, claimed by a demo account or a fresh person,
 * with an ingress credential; and its tier, set through the per-device subscription record billing will write.
 */
export interface TestDevice {
  id: string;
  productLine: ProductLine;
  /** The ingress credential (`dc_….secret`): `Authorization: Bearer {credential}` on data-ingress. */
  credential: string;
  /** The owner's access token. */
  ownerToken: string;
}

/**
 * A device's MQTT connection as the README tells it: user name and client id = device id, password = credential; no
 * reconnecting, so a refusal rejects.
 */
export const connectDevice = (
  device: Pick<TestDevice, 'id' | 'credential'>,
  overrides: mqtt.IClientOptions = {},
): Promise<mqtt.MqttClient> =>
  mqtt.connectAsync(stack().endpoints.mqtt, {
    username: device.id,
    password: device.credential,
    clientId: device.id,
    reconnectPeriod: 0,
    ...overrides,
  });

export const freshDevice = async ({
  productLine = 'sd1',
  owner = 'user@example.com',
  ownerToken,
  visibility = 'private',
}: {
  productLine?: ProductLine;
  /** A demo account; ignored when `ownerToken` is given. */
  owner?: DemoEmail;
  /** A fresh person's token, to own the device instead of a demo account. */
  ownerToken?: string;
  visibility?: 'public' | 'private';
} = {}): Promise<TestDevice> => {
  const serial = freshSerial('SD');
  const { device, claimCode } = await apiAs('devices', await tokenOf('admin@example.com')).register({
    body: { serial, productLine, model: productLine.toUpperCase(), firmwareVersion: '1.0.0' },
  });
  const token = ownerToken ?? (await tokenOf(owner));
  const devices = apiAs('devices', token);
  await devices.claim({ body: { serial, claimCode } });
  if (visibility === 'public') await devices.update({ params: { id: device.id }, body: { dataVisibility: 'public' } });
  const { token: credential } = await devices.createCredential({ params: { id: device.id } });
  return { id: device.id, productLine, credential, ownerToken: token };
};

/** Sets a device's tier as billing will: an active subscription record (no record: the line's base tier). */
export const setTier = async (deviceId: string, tier: TierId, status = 'active') => {
  await documentClient().send(
    new PutCommand({
      TableName: stack().tables.deviceSubscriptions!,
      Item: { deviceId, tier, status, updated: Date.now() },
    }),
  );
};

/** Sends readings through the ingest route as the device would (in batches of 500), so the worker rolls them up. */
export const ingest = async (
  device: Pick<TestDevice, 'credential'>,
  readings: readonly { timestamp: number; values: Record<string, number> }[],
): Promise<void> => {
  for (let start = 0; start < readings.length; start += 500) {
    const sent = await fetch(`${stack().endpoints.gateway}/data-ingress/readings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${device.credential}`, 'content-type': 'application/json' },
      body: JSON.stringify({ readings: readings.slice(start, start + 500) }),
    });
    if (sent.status !== 200) throw new Error(`Ingest answered ${sent.status}: ${await sent.text()}`);
  }
};

/** A device's chart-data object for one period as the roll-up worker wrote it, or undefined when there is none. */
export const chartObject = async (deviceId: string, resolution: 'hour' | 'day', period: string) => {
  try {
    const result = await s3Client().send(
      new GetObjectCommand({
        Bucket: stack().buckets.chartData!,
        Key: `charts/${deviceId}/${resolution}/${period}.json`,
      }),
    );
    return JSON.parse(await result.Body!.transformToString()) as ChartObject;
  } catch {
    return undefined;
  }
};

/** A device's roll-ups at one resolution as the worker wrote them (consistent read), oldest first. */
export const storedRollups = async (deviceId: string, resolution: 'hour' | 'day'): Promise<RollupItem[]> => {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: stack().tables.rollups!,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `${deviceId}#${resolution}` },
      ConsistentRead: true,
    }),
  );
  return Items.map(({ pk: _pk, ...item }) => item as RollupItem);
};

/** A device's items in the readings table for one UTC day, as ingest wrote them, oldest first. */
export const storedItems = async (deviceId: string, time: number): Promise<ReadingsItem[]> => {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: stack().tables.readings!,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `${deviceId}#${dayOf(time)}` },
    }),
  );
  return Items as ReadingsItem[];
};

/**
 * A device's stored readings of one UTC day, every copy the readings table holds (its items opened, without the
 * reader's one copy per timestamp), oldest item first.
 */
export const storedReadings = async (deviceId: string, time: number) =>
  (await storedItems(deviceId, time)).flatMap((item) =>
    readingsOf(item).map(({ timestamp, values }) => ({ ts: timestamp, v: values })),
  );

/** Polls until `check` returns something truthy (the worker and the rule bridge are asynchronous). */
export const eventually = async <T>(check: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> => {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error('Timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

/**
 * The last `hours` of a device's readings, one every `everyMinutes`, sent through the ingest route as the device
 * would: on whole minutes, inside every tier's window when `hours` is under 7 days. A year's chart has buckets hours
 * long, so it draws a line whatever the time of day only from a few days of readings (ten hours can be one point).
 */
export const ingestLastHours = async (
  device: Pick<TestDevice, 'credential'>,
  { hours, everyMinutes }: { hours: number; everyMinutes: number },
) => {
  const minute = 60_000;
  const now = Math.floor(Date.now() / minute) * minute;
  const count = Math.floor((hours * 60) / everyMinutes);
  await ingest(
    device,
    Array.from({ length: count }, (_, i) => ({
      timestamp: now - (count - i) * everyMinutes * minute,
      values: { pm2_5: 10 + (i % 7), temperature: 18 + (i % 10) / 2 },
    })),
  );
};
