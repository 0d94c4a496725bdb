import {
  checkEndpointSettings,
  createEndpointCache,
  createLru,
  ENDPOINT_CACHE_SIZE,
  EndpointConfigError,
} from './endpoints';

const problemOf = (settings: Parameters<typeof checkEndpointSettings>[0]) => {
  try {
    checkEndpointSettings(settings);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(EndpointConfigError);
    return error as EndpointConfigError;
  }
};

describe('endpoint configuration errors (spec §8)', () => {
  it('refuses a missing region', () => {
    for (const region of [undefined, '', '  ']) {
      expect(problemOf({ service: 'DYNAMODB', region })).toMatchObject({
        problem: 'missingRegion',
        service: 'DYNAMODB',
        message: 'Invalid Configuration: Missing Region',
      });
    }
  });

  it('refuses FIPS or dual-stack with a custom endpoint, and FIPS with dual-stack', () => {
    const base = { service: 'S3', region: 'us-west-2' };
    expect(problemOf({ ...base, useFips: true, endpoint: 'http://localhost:4566' })?.message).toBe(
      'Invalid Configuration: FIPS and custom endpoint are not supported',
    );
    expect(problemOf({ ...base, useDualstack: true, endpoint: 'http://localhost:4566' })?.message).toBe(
      'Invalid Configuration: Dualstack and custom endpoint are not supported',
    );
    expect(problemOf({ ...base, useFips: true, useDualstack: true })?.message).toBe(
      'Invalid Configuration: FIPS and DualStack together are not supported',
    );
  });

  it('accepts a region alone, with FIPS, with dual-stack, or with a custom endpoint', () => {
    const base = { service: 'S3', region: 'us-west-2' };
    expect(problemOf(base)).toBeUndefined();
    expect(problemOf({ ...base, useFips: true })).toBeUndefined();
    expect(problemOf({ ...base, useDualstack: true })).toBeUndefined();
    expect(problemOf({ ...base, endpoint: 'http://localhost:4566' })).toBeUndefined();
  });
});

describe('the endpoint cache (spec §9: size 50)', () => {
  it('keeps 50 endpoints and drops the least recently used', () => {
    expect(ENDPOINT_CACHE_SIZE).toBe(50);
    const lru = createLru<number>();
    for (let i = 0; i < 50; i++) lru.set(`e${i}`, i);
    expect(lru.size).toBe(50);
    expect(lru.get('e0')).toBe(0); // e0 is now the most recently used; e1 the least
    lru.set('e50', 50);
    expect(lru.size).toBe(50);
    expect(lru.get('e1')).toBeUndefined();
    expect(lru.get('e0')).toBe(0);
    expect(lru.keys().at(-1)).toBe('e0');
  });

  it('resolves each distinct setting once, and checks before it resolves', () => {
    let resolved = 0;
    const endpointOf = createEndpointCache(({ service, region }) => {
      resolved += 1;
      return `https://${service}.${region}.amazonaws.com`;
    });
    expect(endpointOf({ service: 'iot', region: 'us-west-2' })).toBe('https://iot.us-west-2.amazonaws.com');
    expect(endpointOf({ service: 'iot', region: 'us-west-2' })).toBe('https://iot.us-west-2.amazonaws.com');
    expect(resolved).toBe(1);
    expect(() => endpointOf({ service: 'iot' })).toThrow('Invalid Configuration: Missing Region');
    expect(resolved).toBe(1);
    for (let i = 0; i < 60; i++) endpointOf({ service: `s${i}`, region: 'us-west-2' });
    expect(endpointOf.cache.size).toBe(50);
  });
});
