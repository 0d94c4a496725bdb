import { existsSync } from 'node:fs';
import path from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  type IDistribution,
  PriceClass,
  ResponseHeadersPolicy,
  type ResponseSecurityHeadersBehavior,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { type EnvironmentSettings, hostedDomainOf, REGION } from '../definitions/environments';
import {
  contentSecurityPolicy,
  HASHED_ASSETS_PREFIX,
  RUNTIME_CONFIG_KEY,
  WEB_CACHE_CONTROL,
  WEB_SECURITY_HEADERS,
} from '../definitions/web';
import { lifecycleRules } from '../services/bucket-lifecycle';
import { keepAutoDeleteLogs, logSettings } from '../services/log-retention';
import { accessLogAging } from './data-stack';
import { acknowledgeBucketDeploymentHandler } from './nag-findings';

/** The CDK enum member whose value is `value` (CloudFront's own header values); fails the synth otherwise. */
const member = <E extends string>(enumeration: Record<string, E>, value: string): E => {
  const found = Object.values(enumeration).find((candidate) => candidate === value);
  if (!found) throw new Error(`CloudFront has no header value ${value}`);
  return found;
};

/** The definition's security headers as CloudFront's policy; each replaces what an origin might send. */
const securityHeadersBehavior = (authDomain: string): ResponseSecurityHeadersBehavior => {
  const { strictTransportSecurity: hsts, xssProtection } = WEB_SECURITY_HEADERS;
  return {
    strictTransportSecurity: {
      accessControlMaxAge: Duration.seconds(hsts.maxAgeSeconds),
      includeSubdomains: hsts.includeSubdomains,
      preload: hsts.preload,
      override: true,
    },
    contentTypeOptions: { override: true },
    frameOptions: { frameOption: member(HeadersFrameOption, WEB_SECURITY_HEADERS.frameOptions), override: true },
    referrerPolicy: {
      referrerPolicy: member(HeadersReferrerPolicy, WEB_SECURITY_HEADERS.referrerPolicy),
      override: true,
    },
    xssProtection: { ...xssProtection, override: true },
    contentSecurityPolicy: {
      contentSecurityPolicy: contentSecurityPolicy({ home: 'cloud', region: REGION, authDomain }),
      override: true,
    },
  };
};

/** Props of the {@link WebStack}. */
export interface WebStackProps extends StackProps {
  settings: EnvironmentSettings;
  /**
   * The built web app (`npm run build:web` writes `frontend/dist`; `npm run deploy` builds it first).
   * Deployed only when the folder exists, so a synth without a front-end build still works.
   */
  webDist: string;
  /** The distribution's CLOUDFRONT-scope web ACL (the edge stack's, in us-east-1). Absent: no WAF on it. */
  webAclArn?: string;
}

/**
 * The web app's hosting: a private bucket served through CloudFront with origin access control, HTTPS only,
 * and the single-page-app fallback to index.html. It depends on nothing, so the APIs can learn its origin
 * for CORS; the runtime configuration that names the APIs is published afterwards by the web-config stack.
 */
export class WebStack extends Stack {
  /** The bucket the distribution serves. */
  readonly siteBucket: IBucket;
  /** The distribution in front of it. */
  readonly distribution: IDistribution;
  /** `https://` + the distribution's domain: the origin the APIs answer CORS for. */
  readonly origin: string;
  /** The host name the app is served on: the environment's web domain, or the distribution's. */
  readonly domainName: string;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    // Cross-region references: the web ACL's ARN comes from the edge stack in us-east-1.
    super(scope, id, { ...props, crossRegionReferences: props.webAclArn !== undefined });
    const { settings } = props;

    // CloudFront's standard logs are delivered with object ACLs, so this bucket (unlike the others) keeps ACLs on. It
    // does not log its own access (that would loop); AwsSolutions-S1 sees it is the site bucket's log destination.
    const logs = new Bucket(this, 'LogsBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      versioned: accessLogAging(settings).versioned,
      lifecycleRules: lifecycleRules(accessLogAging(settings)),
      removalPolicy: settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      autoDeleteObjects: !settings.retainData,
    });

    // The site is a build output: it is rebuilt and redeployed, never restored, so it goes with the stack.
    const site = new Bucket(this, 'SiteBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'site/',
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    this.siteBucket = site;

    // Our own policy rather than the managed one: the local production server sends the same headers from the
    // same definition (infra/definitions/web.ts).
    const responseHeaders = new ResponseHeadersPolicy(this, 'ResponseHeaders', {
      comment: `device-data ${settings.name} web app security headers`,
      securityHeadersBehavior: securityHeadersBehavior(hostedDomainOf(settings)),
    });

    const distribution = new Distribution(this, 'Distribution', {
      comment: `device-data ${settings.name} web app`,
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(site),
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        responseHeadersPolicy: responseHeaders,
        compress: true,
      },
      // Deep links (/dashboard/…, /admin/…) are client-side routes: the bucket has no such key, and without
      // list permission S3 answers 403 rather than 404, so both become the app's index.html.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 200,
        responsePagePath: '/index.html',
        ttl: Duration.seconds(10),
      })),
      // The environment's own domain, where it has one: its certificate and the TLS policy CloudFront recommends.
      ...(settings.webDomain
        ? {
            domainNames: [settings.webDomain.name],
            certificate: Certificate.fromCertificateArn(this, 'WebCertificate', settings.webDomain.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'cloudfront/',
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
    });
    this.distribution = distribution;
    this.domainName = settings.webDomain?.name ?? distribution.distributionDomainName;
    this.origin = `https://${this.domainName}`;

    if (!settings.webDomain) {
      Validations.of(distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'The distribution uses the default *.cloudfront.net certificate, whose TLS policy CloudFront fixes; ' +
          'an environment with its own domain (webDomain) gets TLSv1.2_2021.',
      });
    }
    if (!props.webAclArn) {
      Validations.of(distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason:
          "A developer's own environment has no web ACL on its distribution (environments.ts `webWaf`, a fixed " +
          'monthly fee): it serves only the static build, read-only (GET/HEAD); preview and prod have one.',
      });
    }
    Validations.of(distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'The product serves customers wherever their devices are; no country is excluded.',
    });

    const logPolicy = logSettings(settings);
    if (existsSync(props.webDist)) {
      // One handler serves both deployments; without a group of its own its logs would keep CDK's two years.
      const deploymentLogs = new LogGroup(this, 'SiteDeploymentLogs', {
        retention: logPolicy.retention,
        removalPolicy: logPolicy.removalPolicy,
      });
      // Hashed files first, and never pruned: a tab still running the previous build can load its chunks, and
      // the new index.html never names a file that is not there yet.
      const hashed = new BucketDeployment(this, 'SiteAssetsDeployment', {
        sources: [Source.asset(path.join(props.webDist, HASHED_ASSETS_PREFIX))],
        destinationBucket: site,
        destinationKeyPrefix: HASHED_ASSETS_PREFIX,
        prune: false,
        cacheControl: [CacheControl.fromString(WEB_CACHE_CONTROL.hashedAssets)],
        memoryLimit: 512,
        logGroup: deploymentLogs,
      });
      const rest = new BucketDeployment(this, 'SiteDeployment', {
        sources: [Source.asset(props.webDist, { exclude: [HASHED_ASSETS_PREFIX] })],
        destinationBucket: site,
        exclude: [RUNTIME_CONFIG_KEY, `${HASHED_ASSETS_PREFIX}*`],
        cacheControl: [CacheControl.fromString(WEB_CACHE_CONTROL.other)],
        distribution,
        distributionPaths: ['/*'],
        memoryLimit: 512,
        logGroup: deploymentLogs,
      });
      rest.node.addDependency(hashed);
      acknowledgeBucketDeploymentHandler(this, site);
    }

    keepAutoDeleteLogs(this, logPolicy);
    new CfnOutput(this, 'WebUrl', { value: this.origin });
  }
}
