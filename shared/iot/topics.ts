import { MESSAGES } from '../messages';

/**
 * MQTT topics built from ids (spec §5: IoT path labels reject empty or missing values). A label is one topic
 * level: an empty one would address another topic (`devices//readings`), and `/`, `+` or `#` inside one would
 * add levels or act as wildcards, letting an id reach topics it was never meant to.
 */
export class TopicLabelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TopicLabelError';
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const FORBIDDEN = /[/+#\u0000-\u001f\u007f]/;

/** One topic level from a value that should name something: refuses missing, blank and wildcard labels. */
export const topicLabel = (value: unknown, name = 'label'): string => {
  if (value === undefined || value === null) throw new TopicLabelError(MESSAGES.iotLabelMissing(name));
  const label = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  if (label === undefined) throw new TopicLabelError(MESSAGES.iotLabelMissing(name));
  if (label.trim() === '' || label === 'undefined' || label === 'null') {
    throw new TopicLabelError(MESSAGES.iotLabelMissing(name));
  }
  if (FORBIDDEN.test(label) || label !== label.trim()) throw new TopicLabelError(MESSAGES.iotLabelInvalid(name));
  return label;
};

/** What a device's topics carry. */
export const DEVICE_CHANNELS = ['readings', 'live', 'status', 'firmware-status'] as const;
export type DeviceChannel = (typeof DEVICE_CHANNELS)[number];

/** The channels a device itself publishes to (its IoT policy, the local broker's rule); `live` is the platform's. */
export const DEVICE_TOPICS = ['readings', 'status', 'firmware-status'] as const satisfies readonly DeviceChannel[];

/** `devices/{deviceId}/{channel}`. */
export const deviceTopic = (deviceId: unknown, channel: DeviceChannel): string =>
  `devices/${topicLabel(deviceId, 'device id')}/${topicLabel(channel, 'channel')}`;

/** Where a device publishes its measurements (the ingress rule reads it). */
export const readingsTopic = (deviceId: unknown): string => deviceTopic(deviceId, 'readings');

/** Where the platform republishes a device's data for browsers watching it live. */
export const liveTopic = (deviceId: unknown): string => deviceTopic(deviceId, 'live');

/** Where a device reports that it came online or went offline. */
export const statusTopic = (deviceId: unknown): string => deviceTopic(deviceId, 'status');

/** Where a device reports what became of a firmware update (the firmware status rule reads it). */
export const firmwareStatusTopic = (deviceId: unknown): string => deviceTopic(deviceId, 'firmware-status');

/** Every device's topics of one channel, for a subscription or a topic rule: `devices/+/{channel}`. */
export const allDevicesFilter = (channel: DeviceChannel): string => `devices/+/${topicLabel(channel, 'channel')}`;

/** An IoT topic rule's name: rule names are account-wide and allow only letters, digits and underscores. */
export const iotRuleName = (rule: string, env: string): string => `${rule}_${env}`.replace(/[^A-Za-z0-9_]/g, '_');

/** The IoT custom authorizer devices connect through with their credential (decision 031): account-wide names. */
export const deviceAuthorizerName = (env: string): string => `device-data-${env}-devices`;

/** The topic rule that takes in every device's readings (IOT_RULES in infra/definitions/services.ts). */
export const READINGS_RULE = 'DataIngressReadings';

/**
 * The readings rule's name in an environment, as the CDK names it: what its Basic Ingest topic carries, so what the
 * devices' policies open and the device page shows (decision 043).
 */
export const readingsRuleName = (env: string): string => iotRuleName(READINGS_RULE, env);

/** The topic rule that takes in devices' firmware update reports (IOT_RULES; docs/code-releases.md). */
export const FIRMWARE_STATUS_RULE = 'DataIngressFirmwareStatus';

/** The firmware status rule's name in an environment, as the CDK names it (its Basic Ingest topic carries it). */
export const firmwareStatusRuleName = (env: string): string => iotRuleName(FIRMWARE_STATUS_RULE, env);

const BASIC_INGEST = /^\$aws\/rules\/([A-Za-z0-9_]+)\/(.+)$/;

/**
 * Where a device publishes its readings through IoT Core's Basic Ingest (docs/decisions/043-basic-ingest.md):
 * `$aws/rules/{ruleName}/devices/{deviceId}/readings` hands the message to the environment's readings rule without
 * the message broker, so IoT Core charges no messaging for it; nobody can subscribe to it.
 */
export const readingsIngestTopic = (ruleName: string, deviceId: unknown): string =>
  `$aws/rules/${topicLabel(ruleName, 'rule name')}/${readingsTopic(deviceId)}`;

/** A firmware update report through Basic Ingest, as readings go (decision 043): to the firmware status rule only. */
export const firmwareStatusIngestTopic = (ruleName: string, deviceId: unknown): string =>
  `$aws/rules/${topicLabel(ruleName, 'rule name')}/${firmwareStatusTopic(deviceId)}`;

/**
 * A published topic as a rule sees it: a Basic Ingest topic without its `$aws/rules/{ruleName}/` prefix (IoT Core's
 * `topic()` leaves it out; the local broker's rule bridge too), and the rule it names.
 */
export const ruleTopicOf = (topic: string): { topic: string; rule?: string } => {
  const match = BASIC_INGEST.exec(topic);
  return match ? { rule: match[1]!, topic: match[2]! } : { topic };
};

/** The device id of a concrete device topic, or undefined when the topic is not one. */
export const deviceIdOfTopic = (topic: string): string | undefined => {
  const match = /^devices\/([^/+#]+)\/([^/+#]+)$/.exec(topic);
  if (!match || !(DEVICE_CHANNELS as readonly string[]).includes(match[2]!)) return undefined;
  return match[1]!.trim() === '' ? undefined : match[1];
};
