import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import type { CloudEnvName } from '../../infra/app';
import { synthesize } from './synth';

/**
 * CloudFormation rejects a template over 500 resources or 1 MB (uploaded through S3, as CDK does). The margins
 * below make the next service area that would overflow a stack fail here, not in `cdk deploy`
 * (docs/decisions/011-one-nested-stack-per-area.md).
 */
const MAX_RESOURCES = 400;
const MAX_BYTES = 800 * 1024;

describe.each(['prod', 'dev'] as CloudEnvName[])('every %s template', (envName) => {
  const { app, templates } = synthesize(envName);
  const assembly = app.synth();
  // Every stack of the app, nested ones included, found in the construct tree rather than listed by hand.
  const stacks = app.node.findAll().filter(Stack.isStack);

  it('is measured for every stack the tests know, and no other', () => {
    expect(stacks.length).toBe(Object.keys(templates).length);
    expect(stacks.filter((s) => s.nestedStackParent).length).toBeGreaterThan(0);
  });

  it.each(stacks.map((stack) => [stack.node.path, stack] as const))(
    `%s stays under ${MAX_RESOURCES} resources and ${MAX_BYTES / 1024} KB`,
    (_path, stack) => {
      // The file CloudFormation receives: the size counts whatever indentation the stack was synthesized with.
      const text = readFileSync(join(assembly.directory, stack.templateFile));
      const resources = Object.keys(JSON.parse(text.toString('utf8')).Resources ?? {});
      expect(resources.length).toBeLessThan(MAX_RESOURCES);
      expect(text.byteLength).toBeLessThan(MAX_BYTES);
    },
  );
});
