import { Duration, Size, Stack, Validations } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  Cors,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RestApi,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { type Area, normalizePath } from '../../shared/contracts/define-route';
import { OPENAPI_PATH } from '../../shared/contracts/openapi';
import type { CustomDomain } from '../definitions/environments';
import { MIN_COMPRESSION_SIZE_BYTES } from '../definitions/services';
import { acknowledgeNoDeadLetterTarget } from '../stacks/nag-findings';
import type { BundleSettings } from './lambda-bundling';
import type { LogSettings } from './log-retention';
import { ServiceFunction } from './service-function';

/** Props of an {@link AreaApi}. */
export interface AreaApiProps {
  /** The area's contract: every route becomes an API Gateway method. */
  area: Area;
  /** Environment name; names the API and its stage. */
  envName: string;
  /** Absolute path of the area's Lambda entry. */
  entry: string;
  /** Folder holding `package.json` and `package-lock.json`. */
  projectRoot: string;
  /** The token issuer the Lambda trusts (`AUTH_ISSUER`). */
  authIssuer: string;
  /** App clients whose tokens the Lambda accepts (`AUTH_CLIENT_IDS`). */
  authClientIds: string[];
  /** Browser origins the API answers CORS for, in the preflight and in the Lambda's responses. */
  corsOrigins: string[];
  /** The environment's log retention and removal policy, for the function's and the access log groups. */
  logs: LogSettings;
  /** What the environment puts in its function's bundle (ServiceFunction's `bundle`). */
  bundle: BundleSettings;
  /** Responses at least this large are compressed when the client accepts it. @default MIN_COMPRESSION_SIZE_BYTES */
  minCompressionSizeBytes?: number;
  /** The stage's steady rate (requests per second) and burst: the environment's `apiThrottling`. */
  throttling: { rateLimit: number; burstLimit: number };
  /**
   * Routes throttled below the stage, by route key (the contract's): their method-level rate and burst
   * (infra/definitions/route-throttles.ts with the environment's `routeThrottling`). @default none
   */
  routeThrottles?: Record<string, { rateLimit: number; burstLimit: number }>;
  /**
   * The environment's API host: the area answers on `{area}.{host}` (spec §7) with the certificate, and its
   * execute-api address is turned off, so the custom domain is the one way in.
   */
  domain?: CustomDomain;
  /** The environment's regional web ACL, associated with the stage. Absent: no WAF in front of the API. */
  webAclArn?: string;
}

/**
 * One service area in the cloud: a REST API whose resources and methods are walked from the area's contract,
 * all proxied to one Lambda that routes, authenticates and validates by the same contract.
 */
export class AreaApi extends Construct {
  /** The area's Lambda. */
  readonly handler: ServiceFunction;
  /** The area's REST API. */
  readonly restApi: RestApi;
  /** Base URL of the deployed stage, without a trailing slash (the API client appends `/path`). */
  readonly url: string;
  /** The stage's name, as a plain string (the stage resource's own attribute is a reference). */
  readonly stageName: string;

  constructor(scope: Construct, id: string, props: AreaApiProps) {
    super(scope, id);
    const { area } = props;
    this.stageName = props.envName;

    this.handler = new ServiceFunction(this, 'Handler', {
      entry: props.entry,
      projectRoot: props.projectRoot,
      service: area.name,
      envName: props.envName,
      description: `the ${area.name} API (${props.envName})`,
      logs: props.logs,
      bundle: props.bundle,
    });
    const lambda = this.handler.lambda;
    acknowledgeNoDeadLetterTarget(lambda, 'api');
    lambda.addEnvironment('AUTH_ISSUER', props.authIssuer);
    lambda.addEnvironment('AUTH_CLIENT_IDS', props.authClientIds.join(','));
    if (props.corsOrigins.length > 0) lambda.addEnvironment('CORS_ORIGINS', props.corsOrigins.join(','));

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logs.retention,
      removalPolicy: props.logs.removalPolicy,
    });
    const methods = [...new Set(Object.values(area.routes).map((route) => route.method))];
    const routeThrottles = Object.entries(props.routeThrottles ?? {}).map(([key, throttle]) => {
      const route = area.routes[key];
      if (!route) throw new Error(`The ${area.name} area has no route ${key} to throttle (ROUTE_THROTTLES)`);
      return { route, throttle };
    });

    this.restApi = new RestApi(this, 'RestApi', {
      restApiName: `device-data-${props.envName}-${area.name}`,
      description: `The ${area.name} service area (${props.envName}).`,
      endpointTypes: [EndpointType.REGIONAL],
      disableExecuteApiEndpoint: props.domain !== undefined,
      // JSON lists (readings, exports, people) shrink several times over; below this size compressing saves nothing.
      minCompressionSize: Size.bytes(props.minCompressionSizeBytes ?? MIN_COMPRESSION_SIZE_BYTES),
      // The account-wide CloudWatch role is set once per stack (see ApiStack), not once per API.
      cloudWatchRole: false,
      deployOptions: {
        stageName: this.stageName,
        tracingEnabled: true,
        metricsEnabled: true,
        loggingLevel: MethodLoggingLevel.ERROR,
        // Request and response bodies carry personal data; execution logs keep errors only.
        dataTraceEnabled: false,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
        throttlingRateLimit: props.throttling.rateLimit,
        throttlingBurstLimit: props.throttling.burstLimit,
        // A method setting replaces the stage's for that method, so it repeats the logging and metrics as well.
        methodOptions: Object.fromEntries(
          routeThrottles.map(({ route, throttle }) => [
            `${normalizePath(route.path)}/${route.method}`,
            {
              throttlingRateLimit: throttle.rateLimit,
              throttlingBurstLimit: throttle.burstLimit,
              metricsEnabled: true,
              loggingLevel: MethodLoggingLevel.ERROR,
              dataTraceEnabled: false,
            },
          ]),
        ),
      },
      ...(props.corsOrigins.length > 0
        ? {
            defaultCorsPreflightOptions: {
              allowOrigins: props.corsOrigins,
              allowMethods: methods,
              allowHeaders: Cors.DEFAULT_HEADERS, // includes X-Api-Key
              // Bearer tokens, not cookies: the browser never needs to send credentials.
              allowCredentials: false,
              maxAge: Duration.hours(1),
            },
          }
        : {}),
    });

    // One function serves every route, so one permission for the whole API: a permission per method would
    // outgrow Lambda's 20 KB resource-policy limit in the areas with dozens of routes.
    // The live alias, which CodeDeploy shifts between versions (docs/decisions/032-edge-and-gradual-deploys.md).
    const integration = new LambdaIntegration(this.handler.alias, { proxy: true, scopePermissionToMethod: false });
    for (const route of Object.values(area.routes)) {
      const path = normalizePath(route.path);
      const resource = path === '/' ? this.restApi.root : this.restApi.root.resourceForPath(path);
      resource.addMethod(route.method, integration);
    }
    // The area's OpenAPI document, answered by the same Lambda from the contract (docs/decisions/024-api-reference.md).
    this.restApi.root.resourceForPath(OPENAPI_PATH).addMethod('GET', integration);

    if (props.webAclArn) {
      new CfnWebACLAssociation(this, 'WebAcl', {
        resourceArn: this.restApi.deploymentStage.stageArn,
        webAclArn: props.webAclArn,
      });
    }

    const stack = Stack.of(this);
    if (props.domain) {
      const domainName = `${area.name}.${props.domain.name}`;
      // The stage at the domain's root: `https://{area}.{host}/path`, as spec §7 writes the base.
      this.restApi.addDomainName('CustomDomain', {
        domainName,
        certificate: Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn),
        endpointType: EndpointType.REGIONAL,
        securityPolicy: SecurityPolicy.TLS_1_2,
      });
      this.url = `https://${domainName}`;
    } else {
      this.url = `https://${this.restApi.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}/${this.restApi.deploymentStage.stageName}`;
    }

    Validations.of(this.restApi).acknowledge(
      {
        id: 'AwsSolutions-APIG4',
        reason:
          "Authorization is enforced by the area's Lambda for every route, from the route's contract: it verifies " +
          "the JWT (signature, issuer, client, expiry, token use) and the caller's role; guest routes and CORS " +
          'preflights are public by design. An API Gateway authorizer could not apply the per-route roles.',
      },
      {
        id: 'AwsSolutions-COG4',
        reason:
          'The Lambda verifies Cognito tokens itself (see AwsSolutions-APIG4), identically in the cloud and in the ' +
          'local stack, and is the one authority on sessions (docs/architecture.md#identity-and-permissions).',
      },
      {
        id: 'AwsSolutions-APIG2',
        reason:
          "Every request is validated by the area's Lambda against the route's zod schemas (path, query, body) " +
          'before any use case runs; an API Gateway model would restate the contract in a second, weaker form.',
      },
    );
    if (!props.webAclArn) {
      Validations.of(this.restApi).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason:
          "A developer's own environment has no web ACL (environments.ts `waf`): the stage is throttled and every " +
          'non-guest route verifies a JWT before any work; preview and prod have one.',
      });
    }
  }
}
