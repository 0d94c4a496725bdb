import { jest } from '@jest/globals';
import type { Context } from 'aws-lambda';
import { iotRule } from './iot-rule';

describe('the IoT rule chain', () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
  const handler = iotRule('test', async (event, deps: { factor: number }) => (event.n as number) * deps.factor, {
    deps: () => ({ factor: 2 }),
  });

  it("hands the work the payload with its topic and answers the work's result", async () => {
    expect(await handler({ topic: 'devices/d/readings', n: 21 }, {} as Context)).toBe(42);
  });

  it('refuses an event without a topic, and rethrows a failure for the retries to see', async () => {
    await expect(handler({ n: 1 } as never, {} as Context)).rejects.toThrow(/no topic/);
    const failing = iotRule('failing', async () => Promise.reject(new Error('store down')), { deps: () => ({}) });
    await expect(failing({ topic: 't' }, {} as Context)).rejects.toThrow('store down');
  });
});
