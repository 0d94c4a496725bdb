import { join } from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, SecretValue, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AccountRecovery,
  type AttributeMapping,
  CfnUserPoolGroup,
  FeaturePlan,
  type IUserPool,
  type IUserPoolClient,
  ManagedLoginVersion,
  Mfa,
  OAuthScope,
  OidcAttributeRequestMethod,
  ProviderAttribute,
  StandardThreatProtectionMode,
  UserPool,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
  UserPoolIdentityProviderGoogle,
  UserPoolIdentityProviderOidc,
  UserPoolIdentityProviderSaml,
  UserPoolIdentityProviderSamlMetadata,
  UserPoolOperation,
  VerificationEmailStyle,
} from 'aws-cdk-lib/aws-cognito';
import { IdentityPool, type IIdentityPool, UserPoolAuthenticationProvider } from 'aws-cdk-lib/aws-cognito-identitypool';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IRole, Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { TABLES, type TableKey } from '../../functions/_shared/tables';
import { HOSTED_SCOPES, type HostedProvider, hostedUrlsOf, OPENID_SCOPES } from '../../shared/auth/hosted-sign-in';
import { deviceConfigurationOf, GROUPS, hostedSignInOrigins, USER_POOL } from '../definitions/auth';
import {
  type AttributeMapping as AttributeMappingSettings,
  type EnvironmentSettings,
  hostedDomainOf,
  hostedProviderOf,
  type IdentityProviderSettings,
  identityProviderName,
  providersTrustedForLinking,
} from '../definitions/environments';
import { COGNITO_TRIGGERS, type CognitoTriggerName } from '../definitions/services';
import { constructId } from '../services/construct-id';
import { GradualDeployments } from '../services/gradual-deployment';
import { logSettings } from '../services/log-retention';
import { RealUserMonitoring } from '../services/real-user-monitoring';
import { ServiceFunction } from '../services/service-function';
import { acknowledgeNoDeadLetterTarget } from './nag-findings';

const TRIGGER_OPERATIONS: Record<CognitoTriggerName, UserPoolOperation> = {
  PreSignUp: UserPoolOperation.PRE_SIGN_UP,
  PostAuthentication: UserPoolOperation.POST_AUTHENTICATION,
  PostConfirmation: UserPoolOperation.POST_CONFIRMATION,
};

/** Props of the {@link AuthStack}. */
export interface AuthStackProps extends StackProps {
  settings: EnvironmentSettings;
  /** Folder holding `package.json` and the `functions/` sources of the identity triggers. */
  projectRoot: string;
  /** The tables the identity triggers write. */
  tables: Record<TableKey, ITable>;
  /**
   * The web app's origin (`https://{web domain or distribution domain}`, the web stack's `origin`): the hosted
   * sign-in's callback and sign-out URLs are made from it.
   */
  webOrigin: string;
  /** The web app's host name (the web stack's `domainName`): the real-user monitor watches it. */
  webDomain: string;
}

/** What the web app needs of the hosted sign-in (runtime-config.json's `auth.oauth`). */
export interface HostedSignIn {
  /** The host name of the hosted endpoints (`/oauth2/authorize`, …), without a scheme. */
  domain: string;
  scopes: string[];
  callbackUrls: string[];
  signOutUrls: string[];
  /** The identity providers for "Sign in with …": Cognito's names and their labels. */
  providers: HostedProvider[];
}

/** The user pool's attributes from the provider's, as the environment's configuration maps them. */
const attributeMappingOf = (mapping: AttributeMappingSettings): AttributeMapping => ({
  email: ProviderAttribute.other(mapping.email),
  givenName: ProviderAttribute.other(mapping.givenName),
  familyName: ProviderAttribute.other(mapping.familyName),
  ...(mapping.emailVerified ? { emailVerified: ProviderAttribute.other(mapping.emailVerified) } : {}),
});

/**
 * One identity provider of the environment's configuration. A client secret is a CloudFormation dynamic reference to
 * the Secrets Manager secret the configuration names, resolved by CloudFormation at deploy time: the template, the
 * cloud assembly and the repository never hold the secret itself.
 */
const createIdentityProvider = (scope: Construct, userPool: IUserPool, provider: IdentityProviderSettings) => {
  const attributeMapping = attributeMappingOf(provider.attributeMapping);
  switch (provider.type) {
    case 'google':
      return new UserPoolIdentityProviderGoogle(scope, 'GoogleProvider', {
        userPool,
        clientId: provider.clientId,
        clientSecretValue: SecretValue.secretsManager(provider.clientSecretName),
        scopes: [...OPENID_SCOPES],
        attributeMapping,
      });
    case 'oidc':
      return new UserPoolIdentityProviderOidc(scope, `${constructId(provider.name)}OidcProvider`, {
        userPool,
        name: provider.name,
        issuerUrl: provider.issuerUrl,
        clientId: provider.clientId,
        // The OIDC construct takes a string: unwrapping gives the `{{resolve:secretsmanager:…}}` reference, not
        // the value, which only CloudFormation reads.
        clientSecret: SecretValue.secretsManager(provider.clientSecretName).unsafeUnwrap(),
        scopes: provider.scopes,
        attributeRequestMethod: OidcAttributeRequestMethod.GET,
        attributeMapping,
      });
    case 'saml':
      return new UserPoolIdentityProviderSaml(scope, `${constructId(provider.name)}SamlProvider`, {
        userPool,
        name: provider.name,
        metadata: UserPoolIdentityProviderSamlMetadata.url(provider.metadataUrl),
        attributeMapping,
      });
  }
};

/**
 * Identity: the user pool with the spec's groups, the web app's client, and the identity pool through which
 * signed-in users receive AWS credentials (for realtime MQTT over WebSocket).
 */
export class AuthStack extends Stack {
  /** The user pool; its tokens are what every API verifies. */
  readonly userPool: IUserPool;
  /** The web app's client: public (no secret), SRP sign-in. */
  readonly webClient: IUserPoolClient;
  /** The role signed-in identities assume; other stacks grant it what it needs. */
  readonly authenticatedRole: IRole;
  /** The identity pool through which signed-in users reach IoT Core (the live view). */
  readonly identityPool: IIdentityPool;
  /** The user pool's trigger functions, by construct id: the operations alarms. */
  readonly triggers: Record<string, IFunction> = {};
  /** The hosted sign-in's domain (a Cognito prefix domain or the environment's own). */
  readonly domain: UserPoolDomain;
  /** What the web app needs to send a person through the hosted sign-in. */
  readonly hostedSignIn: HostedSignIn;
  /** The real-user monitor the web app reports to (runtime-config.json's `analytics`). */
  readonly analytics: RealUserMonitoring['analytics'];

  constructor(scope: Construct, id: string, props: AuthStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const isProd = settings.name === 'prod';

    const userPool = new UserPool(this, 'UserPool', {
      userPoolName: USER_POOL.name(settings.name),
      signInAliases: Object.fromEntries(USER_POOL.usernameAttributes.map((attribute) => [attribute, true])),
      signInCaseSensitive: false,
      selfSignUpEnabled: true,
      autoVerify: { email: true },
      // Until the new address is verified, the user keeps signing in with (and receiving mail at) the old one.
      keepOriginal: { email: true },
      userVerification: { emailStyle: VerificationEmailStyle.CODE },
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: {
        minLength: USER_POOL.passwordPolicy.minLength,
        requireLowercase: USER_POOL.passwordPolicy.requireLowercase,
        requireUppercase: USER_POOL.passwordPolicy.requireUppercase,
        requireDigits: USER_POOL.passwordPolicy.requireDigits,
        requireSymbols: USER_POOL.passwordPolicy.requireSymbols,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      deviceTracking: deviceConfigurationOf(settings.rememberedDevices),
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // Threat protection (adaptive authentication, compromised credentials) is billed per active user, so it
      // protects production only.
      featurePlan: isProd ? FeaturePlan.PLUS : FeaturePlan.ESSENTIALS,
      ...(isProd ? { standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION } : {}),
      deletionProtection: settings.retainData,
      removalPolicy: settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.userPool = userPool;

    // The same trigger modules cognito-local invokes in the local home (infra/local/cognito-compat).
    const deployments = new GradualDeployments(this, 'LiveDeployments', {
      settings,
      description: 'the identity triggers',
    });
    for (const definition of COGNITO_TRIGGERS) {
      const trigger = new ServiceFunction(this, definition.name, {
        entry: join(props.projectRoot, definition.entry),
        projectRoot: props.projectRoot,
        // The identity triggers are the users area's code (functions/users).
        service: 'users',
        envName: settings.name,
        description: `the ${definition.name} identity triggers (${settings.name})`,
        // Cognito waits at most 5 seconds for a trigger.
        timeout: Duration.seconds(5),
        logs: logSettings(settings),
        bundle: settings,
      });
      for (const table of definition.tables) trigger.readWriteTable(props.tables[table], TABLES[table].envVar);
      if (definition.userPoolActions.length > 0) {
        // Not through addToRolePolicy: the function waits for its role's default policy, the pool names the
        // function as its trigger, so a statement there naming the pool closes a cycle. A policy of its own, which
        // nothing waits for, names this one pool. (A trigger only runs once the pool exists, after this deploy.)
        new Policy(this, `${definition.name}UserPoolPolicy`, {
          roles: [trigger.lambda.role!],
          statements: [new PolicyStatement({ actions: definition.userPoolActions, resources: [userPool.userPoolArn] })],
        });
      }
      if (definition.linkingProviders) {
        trigger.lambda.addEnvironment(
          'LINKING_TRUSTED_PROVIDERS',
          JSON.stringify(providersTrustedForLinking(settings)),
        );
      }
      // Through the live alias, which CodeDeploy shifts between versions.
      for (const name of definition.triggers) userPool.addTrigger(TRIGGER_OPERATIONS[name], trigger.alias);
      deployments.add(definition.name, trigger);
      acknowledgeNoDeadLetterTarget(trigger.lambda, 'cognito');
      this.triggers[definition.name] = trigger.lambda;
    }

    // The hosted sign-in (issue 21): Cognito's managed login on the environment's domain. The classic hosted UI,
    // written out: the newer managed login shows nothing until a branding style exists for each client.
    const { authDomain } = settings;
    this.domain = userPool.addDomain('HostedDomain', {
      ...('prefix' in authDomain
        ? { cognitoDomain: { domainPrefix: authDomain.prefix } }
        : {
            customDomain: {
              domainName: authDomain.name,
              certificate: Certificate.fromCertificateArn(this, 'AuthCertificate', authDomain.certificateArn),
            },
          }),
      managedLoginVersion: ManagedLoginVersion.CLASSIC_HOSTED_UI,
    });

    const providers = settings.identityProviders.map((provider) => createIdentityProvider(this, userPool, provider));
    const providerNames = settings.identityProviders.map(identityProviderName);

    // The callback and sign-out URLs need the web origin, which for an environment without a web domain is the
    // CloudFront distribution's generated name. The web stack depends on nothing, so it is built first and this
    // stack takes its origin: one weak cross-stack reference (Fn::GetStackOutput, cdk.json), as the APIs take it for
    // CORS. The other ways round close a cycle or hide one: the client in the web stack would need the pool there
    // while the identity pool here needs the client; an override of this client's URLs from the web stack still
    // makes this stack read the name; and a custom resource calling UpdateUserPoolClient would reset every setting it
    // does not restate (docs/decisions/034-hosted-sign-in-in-the-cloud.md).
    const origins = hostedSignInOrigins(settings.name, props.webOrigin);
    const callbackUrls = origins.map((origin) => hostedUrlsOf(origin).callbackUrl);
    const signOutUrls = origins.map((origin) => hostedUrlsOf(origin).signOutUrl);

    const webClient = userPool.addClient('WebClient', {
      userPoolClientName: USER_POOL.webClientName(settings.name),
      // A browser cannot keep a secret.
      generateSecret: false,
      // SRP keeps the password off the wire; USER_PASSWORD_AUTH exists only in the local home, whose
      // cognito-local has no SRP. Refresh-token sign-in is always allowed by Cognito.
      authFlows: { userSrp: true, userPassword: false, adminUserPassword: false, custom: false },
      // The authorization-code grant alone, with PKCE: Cognito verifies the code verifier whenever the authorize
      // request carried a code challenge, which Amplify always sends; the client (CloudFormation offers no setting)
      // cannot make it mandatory. No implicit grant, which would put tokens in the URL, and no client credentials,
      // which a client without a secret cannot use.
      oAuth: {
        flows: { authorizationCodeGrant: true, implicitCodeGrant: false, clientCredentials: false },
        scopes: HOSTED_SCOPES.map((scope) => OAuthScope.custom(scope)),
        callbackUrls,
        logoutUrls: signOutUrls,
      },
      supportedIdentityProviders: [
        UserPoolClientIdentityProvider.COGNITO,
        ...providerNames.map((name) => UserPoolClientIdentityProvider.custom(name)),
      ],
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.minutes(USER_POOL.accessTokenMinutes),
      idTokenValidity: Duration.minutes(USER_POOL.idTokenMinutes),
      refreshTokenValidity: Duration.days(USER_POOL.refreshTokenDays),
    });
    // The client names the providers by name, so CloudFormation must create them first.
    for (const provider of providers) webClient.node.addDependency(provider);
    this.webClient = webClient;
    this.hostedSignIn = {
      domain: hostedDomainOf(settings),
      scopes: [...HOSTED_SCOPES],
      callbackUrls,
      signOutUrls,
      providers: settings.identityProviders.map(hostedProviderOf),
    };

    for (const group of GROUPS) {
      new CfnUserPoolGroup(this, `${constructId(group.name)}Group`, {
        userPoolId: userPool.userPoolId,
        groupName: group.name,
        precedence: group.precedence,
        description: group.description,
      });
    }

    const identityPool = new IdentityPool(this, 'IdentityPool', {
      identityPoolName: `device-data-${settings.name}-identities`,
      // A visitor who is not signed in reports real-user measurements with a guest identity, whose role may put
      // events into the environment's app monitor and do nothing else (RealUserMonitoring).
      allowUnauthenticatedIdentities: true,
      authenticationProviders: {
        userPools: [new UserPoolAuthenticationProvider({ userPool, userPoolClient: this.webClient })],
      },
    });
    this.authenticatedRole = identityPool.authenticatedRole;
    this.identityPool = identityPool;
    this.analytics = new RealUserMonitoring(this, 'RealUserMonitoring', {
      settings,
      webDomain: props.webDomain,
      identityPoolId: identityPool.identityPoolId,
      guestRole: identityPool.unauthenticatedRole,
      authenticatedRole: identityPool.authenticatedRole,
    }).analytics;
    Validations.of(identityPool).acknowledge({
      id: 'AwsSolutions-COG7',
      reason:
        "Guest identities exist for real-user monitoring only: the guest role's one permission is rum:PutRumEvents " +
        "on this environment's app monitor (docs/decisions/040-real-user-monitoring.md).",
    });

    Validations.of(userPool).acknowledge(
      {
        id: 'AwsSolutions-COG2',
        reason:
          'MFA is offered (TOTP) but optional: customers self-register to view their own devices, and requiring ' +
          'MFA at sign-up is a product decision not taken by the spec.',
      },
      {
        id: 'AwsSolutions-COG1',
        reason:
          'The policy asks for 10+ characters with upper case, lower case and digits but no symbols (USER_POOL in ' +
          'infra/definitions/auth.ts): length protects better than composition rules (NIST SP 800-63B 5.1.1.2).',
      },
      ...(isProd
        ? []
        : [
            {
              id: 'AwsSolutions-COG8',
              reason:
                'Non-production pools hold test accounts only; the Plus plan (threat protection) is billed per user ' +
                'and is enabled in prod.',
            },
          ]),
    );

    new CfnOutput(this, 'UserPoolId', { value: userPool.userPoolId });
    new CfnOutput(this, 'WebClientId', { value: this.webClient.userPoolClientId });
    new CfnOutput(this, 'IdentityPoolId', { value: identityPool.identityPoolId });
    new CfnOutput(this, 'HostedSignInDomain', { value: this.hostedSignIn.domain });
    if (!('prefix' in authDomain)) {
      // The custom auth domain's DNS record (a CNAME or Route 53 alias) points here.
      new CfnOutput(this, 'HostedSignInDomainTarget', { value: this.domain.cloudFrontEndpoint });
    }
  }
}
