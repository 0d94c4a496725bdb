import { readAuthEnv, readChoiceEnv, readEnv, readListEnv } from './env';

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

describe('readListEnv', () => {
  it('reads a comma-separated list, trimmed, and an unset or empty one as no entries', () => {
    expect(readListEnv('CORS_ORIGINS', { CORS_ORIGINS: 'https://a.example, https://b.example,' })).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
    expect(readListEnv('CORS_ORIGINS', {})).toEqual([]);
    expect(readListEnv('CORS_ORIGINS', { CORS_ORIGINS: '' })).toEqual([]);
  });
});

describe('readChoiceEnv', () => {
  const levels = ['debug', 'info', 'warn', 'error'] as const;

  it('takes a listed value whatever its case, and the default when unset', () => {
    expect(readChoiceEnv('LOG_LEVEL', levels, 'info', { LOG_LEVEL: 'WARN' })).toBe('warn');
    expect(readChoiceEnv('LOG_LEVEL', levels, 'info', {})).toBe('info');
  });

  it('refuses any other value, naming the choices', () => {
    expect(() => readChoiceEnv('LOG_LEVEL', levels, 'info', { LOG_LEVEL: 'verbose' })).toThrow(
      'LOG_LEVEL is "verbose": use one of debug, info, warn, error',
    );
  });
});
