import { AwsSolutionsChecks } from 'cdk-nag';
import { CLOUD_ENVIRONMENTS, type CloudEnvName, parseEnvName } from '../../infra/app';
import { synthesize } from './synth';

describe.each(['prod', 'dev'] as CloudEnvName[])('cdk-nag AWS Solutions on %s', (envName) => {
  const { app } = synthesize(envName);

  it('reports no unacknowledged errors', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    const errors = report.violations
      .filter((v) => v.severity === 'error')
      .map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(errors).toEqual([]);
  });
});

describe('environment choice', () => {
  it('accepts every cloud environment and defaults to dev', () => {
    for (const name of CLOUD_ENVIRONMENTS) expect(parseEnvName(name)).toBe(name);
    expect(parseEnvName(undefined)).toBe('dev');
  });

  it('rejects an unknown environment, and local, with the valid choices', () => {
    expect(() => parseEnvName('qa')).toThrow(/Unknown environment "qa".*dev\|dev-1\|dev-2\|preview\|prod/);
    expect(() => parseEnvName('local')).toThrow(/npm start/);
  });
});
