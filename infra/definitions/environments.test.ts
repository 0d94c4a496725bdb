import { DEVELOPER_ENVIRONMENTS, ENVIRONMENTS, environmentSettings } from './environments';

describe('environment settings', () => {
  it('answers CORS for a local front end only in developers’ own environments', () => {
    for (const name of ENVIRONMENTS.filter((n) => n !== 'local')) {
      const extra = environmentSettings(name).extraCorsOrigins;
      expect([name, extra]).toEqual([name, DEVELOPER_ENVIRONMENTS.includes(name) ? ['http://localhost:5173'] : []]);
    }
    expect(environmentSettings('preview').extraCorsOrigins).toEqual([]);
    expect(environmentSettings('prod').extraCorsOrigins).toEqual([]);
  });
});

describe('alarm e-mail', () => {
  it('names an address for every environment, each its own, production the operations mailbox itself', () => {
    const addresses = ENVIRONMENTS.map((name) => environmentSettings(name).alarmEmail);
    for (const address of addresses) expect(address).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    expect(new Set(addresses).size).toBe(ENVIRONMENTS.length);
    expect(environmentSettings('prod').alarmEmail).toBe('ops@device-data.app');
  });
});
