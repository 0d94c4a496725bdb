import { MESSAGES } from '../messages';
import {
  allDevicesFilter,
  deviceIdOfTopic,
  iotRuleName,
  liveTopic,
  readingsIngestTopic,
  readingsTopic,
  ruleTopicOf,
  statusTopic,
  TopicLabelError,
  topicLabel,
} from './topics';

describe('IoT topics (spec §5: path labels reject empty or missing values)', () => {
  it('builds a device’s topics from its id', () => {
    expect(readingsTopic('dev-sn-1001')).toBe('devices/dev-sn-1001/readings');
    expect(liveTopic('dev-sn-1001')).toBe('devices/dev-sn-1001/live');
    expect(statusTopic('demo-device-1')).toBe('devices/demo-device-1/status');
    expect(allDevicesFilter('readings')).toBe('devices/+/readings');
  });

  it.each([undefined, null, '', '   ', '\t', 'undefined', 'null', {}, []])('refuses the missing label %p', (value) => {
    expect(() => readingsTopic(value)).toThrow(new TopicLabelError(MESSAGES.iotLabelMissing('device id')));
  });

  it.each(['a/b', 'dev+', '#', 'dev-1/#', 'x\u0000y', 'line\nbreak', ' padded', 'padded '])(
    'refuses the label %p that would change the topic',
    (value) => {
      expect(() => liveTopic(value)).toThrow(new TopicLabelError(MESSAGES.iotLabelInvalid('device id')));
    },
  );

  it('names the label it refused', () => {
    expect(() => topicLabel('', 'campaign id')).toThrow('The campaign id in an IoT topic cannot be empty or missing');
  });

  it('accepts numbers as labels', () => {
    expect(topicLabel(42)).toBe('42');
  });

  it('reads the device id back from a concrete topic only', () => {
    expect(deviceIdOfTopic('devices/dev-1/readings')).toBe('dev-1');
    expect(deviceIdOfTopic('devices/+/readings')).toBeUndefined();
    expect(deviceIdOfTopic('devices//readings')).toBeUndefined();
    expect(deviceIdOfTopic('devices/dev-1/other')).toBeUndefined();
    expect(deviceIdOfTopic('devices/dev-1/readings/extra')).toBeUndefined();
  });

  it('builds a device’s Basic Ingest readings topic from its environment’s rule, and reads it back', () => {
    const rule = iotRuleName('DataIngressReadings', 'dev-1');
    expect(rule).toBe('DataIngressReadings_dev_1');
    const topic = readingsIngestTopic(rule, 'dev-sn-1001');
    expect(topic).toBe('$aws/rules/DataIngressReadings_dev_1/devices/dev-sn-1001/readings');
    expect(ruleTopicOf(topic)).toEqual({ rule, topic: 'devices/dev-sn-1001/readings' });
    expect(deviceIdOfTopic(ruleTopicOf(topic).topic)).toBe('dev-sn-1001');
    expect(ruleTopicOf('devices/dev-1/readings')).toEqual({ topic: 'devices/dev-1/readings' });
    // Not a rule name (IoT allows letters, digits, underscores): left as it is, and it names no device.
    expect(ruleTopicOf('$aws/rules/bad-name/devices/dev-1/readings').rule).toBeUndefined();
    expect(() => readingsIngestTopic(rule, 'a/b')).toThrow(TopicLabelError);
  });
});
