import { fileURLToPath } from 'node:url';
import { Template } from 'aws-cdk-lib/assertions';
import { type BuildAppOptions, buildApp, type CloudEnvName, type EnvironmentStacks } from '../../infra/app';

/** A stand-in for `frontend/dist`, so the site deployment is synthesized whether or not a build exists. */
export const WEB_DIST_FIXTURE = fileURLToPath(new URL('./fixtures/web-dist', import.meta.url));

export type Templates = Record<keyof EnvironmentStacks, Template>;

/**
 * Builds one environment and synthesizes it once. Lambda bundling is skipped (`aws:cdk:bundling-stacks: []`),
 * so no esbuild run happens in tests; the templates are otherwise those `cdk synth` writes.
 */
export const synthesize = (envName: CloudEnvName, options: Omit<BuildAppOptions, 'app'> = {}) => {
  const { app, stacks } = buildApp(envName, {
    webDist: WEB_DIST_FIXTURE,
    ...options,
    context: { 'aws:cdk:bundling-stacks': [], ...options.context },
  });
  const templates = Object.fromEntries(
    Object.entries(stacks).map(([key, stack]) => [key, Template.fromStack(stack)]),
  ) as Templates;
  return { app, stacks, templates };
};

type Resources = Record<string, { Type: string; Properties: Record<string, unknown>; [key: string]: unknown }>;

/** Every resource of a type, by logical id. */
export const resourcesOfType = (template: Template, type: string): Resources =>
  template.findResources(type) as Resources;

/** Whether a (possibly intrinsic) CloudFormation value mentions the given logical id or construct id. */
export const mentions = (value: unknown, id: string): boolean => JSON.stringify(value).includes(id);
