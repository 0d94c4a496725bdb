import { type App, App as CdkApp, Stack, Validations } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks, type NagPack, ServerlessChecks } from 'cdk-nag';
import { CLOUD_ENVIRONMENTS, type CloudEnvName, parseEnvName } from '../../infra/app';
import { acknowledgements, formatAcknowledgements, packOf, usedAcknowledgements } from './nag-acknowledgements';
import { assemblyDir, synthesize } from './synth';

/** The packs infra/app.ts runs on every synth, by the prefix of their rule ids. */
const PACKS: Record<string, () => NagPack> = {
  AwsSolutions: () => new AwsSolutionsChecks(),
  Serverless: () => new ServerlessChecks(),
};

/** A reason shorter than this cannot say what the finding is about and why it does not apply. */
const MIN_REASON_LENGTH = 40;

/** Every finding the pack still reports, errors and warnings alike: a warning left standing is a finding too. */
const findings = (pack: NagPack, app: App): string[] =>
  pack
    .validateScope(app)
    .violations.flatMap((v) => v.violatingResources.map((r) => `${v.severity} ${v.ruleName} at ${r.constructPath}`));

describe.each(['prod', 'dev'] as CloudEnvName[])('cdk-nag on %s', (envName) => {
  const { app } = synthesize(envName);
  const listed = acknowledgements(app);

  it.each(Object.keys(PACKS))('%s reports no unacknowledged finding, error or warning', (pack) => {
    expect(findings(PACKS[pack]!(), app)).toEqual([]);
  });

  // The CI log lists what is acknowledged and why, per pack, so a reviewer sees a new suppression in the run.
  it.each(Object.keys(PACKS))('lists the %s acknowledgements with their reasons', (pack) => {
    const ofPack = listed.filter((a) => packOf(a.rule) === pack);
    console.log(formatAcknowledgements(`cdk-nag ${pack} on ${envName}`, ofPack));
    expect(ofPack.length).toBeGreaterThan(0);
  });

  // An acknowledgement whose finding is gone (the resource fixed, or the rule changed its mind) would still show in the
  // list and read as a decision someone has to keep.
  it('uses every acknowledgement of both packs: each one suppresses a finding', () => {
    const used = new Set(Object.values(PACKS).flatMap((pack) => [...usedAcknowledgements(pack(), app)]));
    const unused = listed.filter((a) => packOf(a.rule) in PACKS && !used.has(`${a.rule} at ${a.path}`));
    expect(unused.map((a) => `${a.rule} at ${a.path}`)).toEqual([]);
  });

  it(`gives every acknowledgement a reason of at least ${MIN_REASON_LENGTH} characters`, () => {
    const short = listed.filter((a) => a.reason.trim().length < MIN_REASON_LENGTH);
    expect(short.map((a) => `${a.rule} at ${a.path}: "${a.reason}"`)).toEqual([]);
  });
});

// Every synth of every environment runs both packs (infra/app.ts); the other environments differ from these two in
// names, retention and the WAF, which is what findings depend on, so each is checked once, findings only.
describe.each(CLOUD_ENVIRONMENTS.filter((name) => !['prod', 'dev'].includes(name)))('cdk-nag on %s', (envName) => {
  it('synthesizes with no unacknowledged finding of either pack', () => {
    const { app } = synthesize(envName);
    for (const pack of Object.values(PACKS)) expect(findings(pack(), app)).toEqual([]);
  });
});

describe('the acknowledgement list', () => {
  it('reads what Validations.acknowledge records, as cdk-nag does', () => {
    // Its assembly goes where the synths' go, removed with them (a bare App leaves a cdk.out in the system's tmp).
    const app = new CdkApp({ outdir: assemblyDir() });
    const queue = new Queue(new Stack(app, 'Probe'), 'Queue');
    Validations.of(queue).acknowledge(
      { id: 'Serverless-SQSRedrivePolicy', reason: 'not needed' },
      { id: 'AwsSolutions-IAM5[Resource::*]', reason: 'any' },
    );
    expect(acknowledgements(app)).toEqual([
      { rule: 'Serverless-SQSRedrivePolicy', path: 'Probe/Queue', reason: 'not needed' },
      { rule: 'AwsSolutions-IAM5[Resource::*]', path: 'Probe/Queue', reason: 'any' },
    ]);
    expect(new ServerlessChecks().validateScope(app).violations).toEqual([]);
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
