import {
  readAuthEnv,
  readChoiceEnv,
  readEnv,
  readEnvOr,
  readFlagEnv,
  readListEnv,
  readOneOfEnv,
  readOptionalEnv,
  readWholeNumberEnv,
} from './env';

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

describe('readEnvOr and readOptionalEnv', () => {
  it('take the value, trimmed, and the declared default (or none) when unset or blank', () => {
    expect(readEnvOr('SERVICE', 'device-data', { SERVICE: ' users ' })).toBe('users');
    expect(readEnvOr('SERVICE', 'device-data', { SERVICE: ' ' })).toBe('device-data');
    expect(readEnvOr('SERVICE', 'device-data', {})).toBe('device-data');
    expect(readOptionalEnv('AWS_REGION', { AWS_REGION: 'us-west-2' })).toBe('us-west-2');
    expect(readOptionalEnv('AWS_REGION', { AWS_REGION: '' })).toBeUndefined();
  });
});

describe('readFlagEnv', () => {
  it('reads true or false in any case, false when unset, and refuses anything else', () => {
    expect(readFlagEnv('FLAG', { FLAG: 'TRUE' })).toBe(true);
    expect(readFlagEnv('FLAG', { FLAG: 'false' })).toBe(false);
    expect(readFlagEnv('FLAG', {})).toBe(false);
    expect(() => readFlagEnv('FLAG', { FLAG: 'yes' })).toThrow('FLAG is "yes": use one of true, false');
  });
});

describe('readWholeNumberEnv', () => {
  it('reads a whole number of at least 0, the default when unset, and refuses anything else', () => {
    expect(readWholeNumberEnv('SETTLE_MS', 5000, { SETTLE_MS: '0' })).toBe(0);
    expect(readWholeNumberEnv('SETTLE_MS', 5000, {})).toBe(5000);
    expect(() => readWholeNumberEnv('SETTLE_MS', 5000, { SETTLE_MS: '1.5' })).toThrow(
      'SETTLE_MS must be a whole number: 1.5',
    );
    expect(() => readWholeNumberEnv('SETTLE_MS', 5000, { SETTLE_MS: '-1' })).toThrow('SETTLE_MS');
  });
});

describe('readOneOfEnv', () => {
  const names = { secret: 'SECRET', secretArn: 'SECRET_ARN' } as const;

  it('answers the one variable set, under its key', () => {
    expect(readOneOfEnv(names, { SECRET: 's' })).toEqual({ secret: 's' });
    expect(readOneOfEnv(names, { SECRET_ARN: 'arn:x' })).toEqual({ secretArn: 'arn:x' });
  });

  it('refuses neither and both, naming the two', () => {
    expect(() => readOneOfEnv(names, {})).toThrow('Missing environment variables: SECRET or SECRET_ARN');
    expect(() => readOneOfEnv(names, { SECRET: 's', SECRET_ARN: 'arn:x' })).toThrow(
      'Set one of SECRET and SECRET_ARN, not both',
    );
  });
});
