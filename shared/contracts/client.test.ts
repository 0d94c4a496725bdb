import { RestApiConfigError, resolveApiBaseUrl } from './client';

describe('REST client errors (spec §8)', () => {
  it("answers 'API category not configured' when no API is configured", () => {
    for (const configured of [undefined, {}]) {
      const error = (() => {
        try {
          return resolveApiBaseUrl(configured, 'system');
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(RestApiConfigError);
      expect((error as Error).message).toBe('API category not configured');
    }
  });

  it("answers 'API {name} does not exist' for a name without a URL", () => {
    const configured = { system: 'http://localhost:3000/system', devices: '' };
    expect(() => resolveApiBaseUrl(configured, 'datasets')).toThrow(
      new RestApiConfigError('API datasets does not exist'),
    );
    expect(() => resolveApiBaseUrl(configured, 'devices')).toThrow('API devices does not exist');
    // Only the configuration's own names count, never an inherited property.
    expect(() => resolveApiBaseUrl(configured, 'toString')).toThrow('API toString does not exist');
  });

  it('answers the URL of a configured API', () => {
    expect(resolveApiBaseUrl({ system: 'http://localhost:3000/system' }, 'system')).toBe(
      'http://localhost:3000/system',
    );
  });
});
