import { localIdentityId, parseWatcherTopic, REALTIME_POLICY_NAME, watcherTopic } from './realtime';

describe('realtime topics', () => {
  it('names the spec’s policy', () => {
    expect(REALTIME_POLICY_NAME).toBe('IoTPolicyForCognito');
  });

  it('builds a watcher topic under the identity and reads it back', () => {
    const topic = watcherTopic('dev', 'eu-west-1:1234-abcd', 'dev-sn-1');
    expect(topic).toBe('dev/identities/eu-west-1:1234-abcd/devices/dev-sn-1/live');
    expect(parseWatcherTopic(topic)).toEqual({ env: 'dev', identityId: 'eu-west-1:1234-abcd', deviceId: 'dev-sn-1' });
    expect(watcherTopic('local', localIdentityId('sub-1'), 'd')).toBe('local/identities/local:sub-1/devices/d/live');
  });

  it.each(['a/b', '+', '#', ''])('refuses the identity %p that would change the topic', (identity) => {
    expect(() => watcherTopic('dev', identity, 'dev-1')).toThrow();
  });

  it.each([
    'dev/identities/+/devices/d/live',
    'dev/identities/x/devices/#',
    'dev/identities/x/devices/d/live/more',
    'devices/d/readings',
    'dev/identities/x/devices//live',
  ])('does not read %p as a watcher topic', (topic) => {
    expect(parseWatcherTopic(topic)).toBeUndefined();
  });
});
