import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { type BuildAppOptions, buildApp, type CloudEnvName, type EnvironmentStacks } from '../../infra/app';
import type { AreaName } from '../../shared/contracts/areas';

/** A stand-in for `frontend/dist`, so the site deployment is synthesized whether or not a build exists. */
export const WEB_DIST_FIXTURE = fileURLToPath(new URL('./fixtures/web-dist', import.meta.url));

/** The key of a service area's nested stack (under the API stack) in {@link Templates}. */
export type AreaTemplateKey = `api/${AreaName}`;
export const areaTemplateKey = (area: AreaName): AreaTemplateKey => `api/${area}`;

/** Every stack's template: each top-level stack by its key, and each area's nested stack as `api/{area}`. */
export type Templates = Record<Exclude<keyof EnvironmentStacks, 'edge'>, Template> & {
  /** The us-east-1 stack, where the environment has a web ACL on CloudFront (`webWaf`). */
  edge?: Template;
} & Partial<Record<AreaTemplateKey, Template>>;

/**
 * Where this process's synths write their cloud assemblies: under the run's directory, which the infra project's
 * teardown removes, or (a file run on its own) a directory removed when the process exits.
 */
let assemblies: string | undefined;
export const assemblyDir = (): string => {
  if (!assemblies) {
    const cache = process.env.INFRA_SYNTH_CACHE;
    if (cache) {
      assemblies = path.join(cache, `assemblies-${process.pid}`);
      mkdirSync(assemblies, { recursive: true });
    } else {
      const own = mkdtempSync(path.join(tmpdir(), 'device-data-assemblies-'));
      process.on('exit', () => rmSync(own, { recursive: true, force: true }));
      assemblies = own;
    }
  }
  return mkdtempSync(path.join(assemblies, 'cdk.out-'));
};

/**
 * Builds one environment and synthesizes it once. Lambda bundling is skipped (`aws:cdk:bundling-stacks: []`),
 * so no esbuild run happens in tests; the templates are otherwise those `cdk synth` writes.
 */
export const synthesize = (envName: CloudEnvName, options: Omit<BuildAppOptions, 'app'> = {}) => {
  const { app, stacks } = buildApp(envName, {
    webDist: WEB_DIST_FIXTURE,
    outdir: assemblyDir(),
    ...options,
    context: { 'aws:cdk:bundling-stacks': [], ...options.context },
  });
  const byKey = new Map<string, Stack>([
    ...Object.entries(stacks),
    ...Object.entries(stacks.api.areaStacks).map(
      ([area, stack]) => [areaTemplateKey(area as AreaName), stack] as const,
    ),
  ]);
  // A stack added anywhere (another nested stack, say) without a key here would escape every assertion.
  const unlisted = app.node
    .findAll()
    .filter((c): c is Stack => Stack.isStack(c) && ![...byKey.values()].includes(c))
    .map((s) => s.node.path);
  if (unlisted.length > 0) throw new Error(`Stacks missing from the test templates: ${unlisted.join(', ')}`);
  const templates = Object.fromEntries([...byKey].map(([key, stack]) => [key, Template.fromStack(stack)])) as Templates;
  return { app, stacks, templates };
};

/**
 * An environment's templates with the default options, synthesized once per jest run: most files assert on the same
 * `prod` and `dev` templates, and a synth takes about 10 s here. The infra project's global setup names a directory
 * of its own for the run (`INFRA_SYNTH_CACHE`, removed at teardown), so no run reads another's (or older code's)
 * templates; without it (a file run on its own elsewhere) this synthesizes.
 */
export const synthesizedTemplates = (envName: CloudEnvName): Templates => {
  const cache = process.env.INFRA_SYNTH_CACHE;
  if (!cache) return synthesize(envName).templates;
  const file = path.join(cache, `${envName}.json`);
  if (existsSync(file)) {
    const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
    return Object.fromEntries(Object.entries(json).map(([key, t]) => [key, Template.fromJSON(t)])) as Templates;
  }
  const { templates } = synthesize(envName);
  const json = Object.fromEntries(Object.entries(templates).map(([key, t]) => [key, (t as Template).toJSON()]));
  // Whole or not at all: a second worker reading it mid-write must not see half a template.
  writeFileSync(`${file}.${process.pid}`, JSON.stringify(json));
  renameSync(`${file}.${process.pid}`, file);
  return templates;
};

/** The template of an area's nested stack; fails the test when the area has none. */
export const areaTemplate = (templates: Templates, area: AreaName): Template => {
  const template = templates[areaTemplateKey(area)];
  if (!template) throw new Error(`No nested stack for the ${area} area`);
  return template;
};

type Resources = Record<string, { Type: string; Properties: Record<string, unknown>; [key: string]: unknown }>;

/** Every resource of a type, by logical id. */
export const resourcesOfType = (template: Template, type: string): Resources =>
  template.findResources(type) as Resources;

/** Whether a (possibly intrinsic) CloudFormation value mentions the given logical id or construct id. */
export const mentions = (value: unknown, id: string): boolean => JSON.stringify(value).includes(id);

/**
 * The logical id of a function's `live` alias, which every trigger invokes (docs/decisions/032-edge-and-gradual-deploys.md);
 * fails the test unless there is exactly one.
 */
export const liveAliasOf = (template: Template, functionId: string): string => {
  const ids = Object.entries(resourcesOfType(template, 'AWS::Lambda::Alias'))
    .filter(([, a]) => a.Properties.Name === 'live' && mentions(a.Properties.FunctionName, functionId))
    .map(([id]) => id);
  if (ids.length !== 1) throw new Error(`${ids.length} live aliases of ${functionId}`);
  return ids[0]!;
};
