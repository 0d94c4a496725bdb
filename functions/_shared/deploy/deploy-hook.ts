import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { log } from '../logger';
import { lambdaTelemetry } from '../telemetry';

/** What CDK's custom-resource provider framework hands its onEvent function. */
const DeployEventShape = z.object({
  RequestType: z.enum(['Create', 'Update', 'Delete']),
  PhysicalResourceId: z.string().optional(),
  ResourceProperties: z.record(z.string(), z.unknown()).default({}),
});

/** The provider framework's answer: the resource's id and attributes (strings, numbers, flags only). */
export interface DeployHookResult {
  PhysicalResourceId: string;
  Data?: Record<string, string | number | boolean>;
}

/**
 * The chain for work a deploy runs (a CloudFormation custom resource through CDK's provider framework), written
 * once: Create and Update run the work, Delete does nothing (work a deploy did is not undone by removing the
 * resource); start, end and result are logged. A failure is logged and rethrown, which fails the deploy.
 */
export const deployHook = <D>(
  name: string,
  work: (deps: D) => Promise<Record<string, string | number | boolean>>,
  options: { deps: () => D },
) => {
  let deps: D | undefined;
  return middy<unknown, DeployHookResult, Error, Context>()
    .use(lambdaTelemetry<unknown, DeployHookResult>())
    .use({
      onError: async (request) => {
        log('error', 'Deploy hook failed', {
          hook: name,
          error: request.error instanceof Error ? request.error.message : String(request.error),
          stack: request.error instanceof Error ? request.error.stack : undefined,
        });
      },
    })
    .handler(async (event) => {
      const parsed = DeployEventShape.safeParse(event);
      if (!parsed.success) throw new Error(`${name}: not a custom-resource event: ${parsed.error.message}`);
      const id = parsed.data.PhysicalResourceId ?? name;
      if (parsed.data.RequestType === 'Delete') return { PhysicalResourceId: id };
      deps ??= options.deps();
      const started = Date.now();
      log('info', 'Deploy hook started', { hook: name, request: parsed.data.RequestType });
      const data = await work(deps);
      log('info', 'Deploy hook done', { hook: name, ms: Date.now() - started, result: data });
      return { PhysicalResourceId: id, Data: data };
    });
};
