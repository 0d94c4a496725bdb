import { jest } from '@jest/globals';
import type { Context } from 'aws-lambda';
import { deployHook } from './deploy-hook';

const context = {} as Context;

beforeEach(() => {
  jest.spyOn(console, 'info').mockImplementation(() => undefined);
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

describe('deployHook', () => {
  it('runs the work on Create and Update with its result as the resource data, and nothing on Delete', async () => {
    const work = jest.fn(async () => ({ finished: 'm1', more: false }));
    const handler = deployHook('TestHook', work, { deps: () => ({}) });
    await expect(handler({ RequestType: 'Create', ResourceProperties: { version: 'a' } }, context)).resolves.toEqual({
      PhysicalResourceId: 'TestHook',
      Data: { finished: 'm1', more: false },
    });
    await expect(handler({ RequestType: 'Update', PhysicalResourceId: 'TestHook' }, context)).resolves.toMatchObject({
      PhysicalResourceId: 'TestHook',
    });
    await expect(handler({ RequestType: 'Delete', PhysicalResourceId: 'TestHook' }, context)).resolves.toEqual({
      PhysicalResourceId: 'TestHook',
    });
    expect(work).toHaveBeenCalledTimes(2);
  });

  it('refuses what is not a custom-resource event, and logs and rethrows a failure (the deploy fails)', async () => {
    const handler = deployHook(
      'TestHook',
      async () => {
        throw new Error('table missing');
      },
      { deps: () => ({}) },
    );
    await expect(handler({ RequestType: 'Replace' }, context)).rejects.toThrow('not a custom-resource event');
    await expect(handler({ RequestType: 'Create' }, context)).rejects.toThrow('table missing');
    expect(jest.mocked(console.error).mock.calls.map(([line]) => JSON.parse(String(line)))).toContainEqual(
      expect.objectContaining({ hook: 'TestHook' }),
    );
  });
});
