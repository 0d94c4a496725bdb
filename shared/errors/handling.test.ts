import { jest } from '@jest/globals';
import { logAndRethrow, logAndReturnNothing, returnError } from './handling';

describe('the handling rules (spec §8)', () => {
  const boom = new Error('boom');
  const failing = async (): Promise<number> => {
    throw boom;
  };

  it('most calls: log the error and return nothing', async () => {
    const log = jest.fn();
    expect(await logAndReturnNothing('Live watch not stopped', failing, log)).toBeUndefined();
    expect(log).toHaveBeenCalledWith('Live watch not stopped', boom);
    expect(await logAndReturnNothing('fine', async () => 7, log)).toBe(7);
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('the notification create calls: return the error object', async () => {
    expect(await returnError(failing)).toBe(boom);
    expect(await returnError(async () => 'n-1')).toBe('n-1');
    const wrapped = await returnError(() => {
      throw 'text';
    });
    expect(wrapped).toBeInstanceOf(Error);
    expect((wrapped as Error).message).toBe('text');
  });

  it('API wrapper calls: log and rethrow the same error', async () => {
    const log = jest.fn();
    await expect(logAndRethrow('system.getParameter', failing, log)).rejects.toBe(boom);
    expect(log).toHaveBeenCalledWith('system.getParameter', boom);
    expect(await logAndRethrow('ok', () => 1, log)).toBe(1);
  });
});
