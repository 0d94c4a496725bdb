import { jest } from '@jest/globals';
import { announceNewUser, rememberNewUser } from './new-user-notice';

const memoryFlags = () => {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
};

describe('the new-user notice', () => {
  it('is sent once, after this browser confirmed a sign-up', () => {
    const flags = memoryFlags();
    const send = jest.fn(async (_id: string) => undefined);
    announceNewUser('u1', send, flags);
    expect(send).not.toHaveBeenCalled();

    rememberNewUser(flags);
    announceNewUser('u1', send, flags);
    announceNewUser('u1', send, flags);
    expect(send.mock.calls).toEqual([['u1']]);
  });

  it('does not surface a failed send to the new user', async () => {
    const flags = memoryFlags();
    rememberNewUser(flags);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    announceNewUser('u1', async () => Promise.reject(new Error('down')), flags);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
