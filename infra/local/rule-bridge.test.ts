import { Aedes } from 'aedes';
import { startRuleBridge, topicMatches } from './rule-bridge';

describe('topic filters', () => {
  it.each([
    ['dt/+/readings', 'dt/dev-1/readings', true],
    ['dt/+/readings', 'dt/dev-1/status', false],
    ['dt/+/readings', 'dt/dev-1/readings/extra', false],
    ['dt/#', 'dt/dev-1/readings/extra', true],
    ['dt/#', 'other/dev-1', false],
    ['dt/dev-1', 'dt/dev-1', true],
    ['dt/dev-1/+', 'dt/dev-1', false],
  ])('%s against %s is %s', (filter, topic, expected) => {
    expect(topicMatches(filter, topic)).toBe(expected);
  });
});

describe('the MQTT rule bridge', () => {
  const publishAs = (broker: Aedes, topic: string, payload: string) =>
    new Promise<void>((resolve) => {
      // A client-published packet: the bridge ignores the broker's own ($SYS, will) messages.
      broker.emit(
        'publish',
        { topic, payload: Buffer.from(payload), cmd: 'publish', qos: 0, dup: false, retain: false },
        {
          id: 'device-1',
        },
      );
      resolve();
    });

  it('invokes the matching rule with the payload and its topic, and reports bad payloads', async () => {
    const broker = await Aedes.createBroker();
    const calls: unknown[] = [];
    const errors: string[] = [];
    const bridge = startRuleBridge(
      broker,
      [
        {
          name: 'ingest',
          ruleName: 'ingest_local',
          topicFilter: 'dt/+/readings',
          handler: async (event) => calls.push(event),
        },
      ],
      (rule, error) => errors.push(`${rule}: ${(error as Error).message}`),
    );
    await publishAs(broker, 'dt/d1/readings', '{"pm10":3}');
    await publishAs(broker, 'dt/d1/status', '{"ok":true}');
    await publishAs(broker, 'dt/d1/readings', 'not json');
    await bridge.stop();
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    expect(calls).toEqual([{ pm10: 3, topic: 'dt/d1/readings' }]);
    expect(errors).toEqual(['ingest: Payload on dt/d1/readings is not JSON']);
  });

  it('hands a Basic Ingest publish to the rule it names only, with the topic after the prefix', async () => {
    const broker = await Aedes.createBroker();
    const calls: [string, unknown][] = [];
    const rule = (name: string) => ({
      name,
      ruleName: `${name}_local`,
      topicFilter: 'dt/+/readings',
      handler: async (event: Record<string, unknown>) => calls.push([name, event]),
    });
    const bridge = startRuleBridge(broker, [rule('ingest'), rule('other')]);
    await publishAs(broker, '$aws/rules/ingest_local/dt/d1/readings', '{"pm10":4}');
    // Another environment's rule, an unknown rule, a topic outside the named rule's filter: no rule runs.
    await publishAs(broker, '$aws/rules/ingest_prod/dt/d1/readings', '{"pm10":5}');
    await publishAs(broker, '$aws/rules/nobody/dt/d1/readings', '{"pm10":6}');
    await publishAs(broker, '$aws/rules/ingest_local/dt/d1/status', '{"pm10":7}');
    await bridge.stop();
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    expect(calls).toEqual([['ingest', { pm10: 4, topic: 'dt/d1/readings' }]]);
  });
});
