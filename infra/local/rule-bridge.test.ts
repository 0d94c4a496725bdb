import { topicMatches } from './rule-bridge';

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
