import { readAuthEnv, readEnv } from './env';

describe('readEnv', () => {
  it('returns the values under their keys', () => {
    expect(readEnv({ table: 'TABLE' }, { TABLE: 'parameters' })).toEqual({ table: 'parameters' });
  });

  it('names every missing variable at once', () => {
    expect(() => readEnv({ a: 'A', b: 'B', c: 'C' }, { B: 'x' })).toThrow('Missing environment variables: A, C');
  });

  it('treats an empty value as missing', () => {
    expect(() => readEnv({ a: 'A' }, { A: '' })).toThrow('A');
  });

  it('splits the accepted client ids', () => {
    expect(readAuthEnv({ AUTH_ISSUER: 'http://x/p', AUTH_CLIENT_IDS: 'one, two' }).clientIds).toEqual(['one', 'two']);
  });
});
