import { join } from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  CfnUserPoolGroup,
  FeaturePlan,
  type IUserPool,
  type IUserPoolClient,
  Mfa,
  StandardThreatProtectionMode,
  UserPool,
  UserPoolOperation,
  VerificationEmailStyle,
} from 'aws-cdk-lib/aws-cognito';
import { IdentityPool, type IIdentityPool, UserPoolAuthenticationProvider } from 'aws-cdk-lib/aws-cognito-identitypool';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { GROUPS, USER_POOL } from '../definitions/auth';
import type { EnvironmentSettings } from '../definitions/environments';
import { COGNITO_TRIGGERS } from '../definitions/services';
import { TABLES, type TableKey } from '../definitions/tables';
import { constructId } from '../services/construct-id';
import { GradualDeployments } from '../services/gradual-deployment';
import { logSettings } from '../services/log-retention';
import { ServiceFunction } from '../services/service-function';
import { acknowledgeNoDeadLetterTarget } from './nag-findings';

const TRIGGER_OPERATIONS = {
  PostAuthentication: UserPoolOperation.POST_AUTHENTICATION,
  PostConfirmation: UserPoolOperation.POST_CONFIRMATION,
} as const;

/** Props of the {@link AuthStack}. */
export interface AuthStackProps extends StackProps {
  settings: EnvironmentSettings;
  /** Folder holding `package.json` and the `functions/` sources of the identity triggers. */
  projectRoot: string;
  /** The tables the identity triggers write. */
  tables: Record<TableKey, ITable>;
}

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
      });
      for (const table of definition.tables) trigger.readWriteTable(props.tables[table], TABLES[table].envVar);
      // Through the live alias, which CodeDeploy shifts between versions.
      for (const name of definition.triggers) userPool.addTrigger(TRIGGER_OPERATIONS[name], trigger.alias);
      deployments.add(definition.name, trigger);
      acknowledgeNoDeadLetterTarget(trigger.lambda, 'cognito');
      this.triggers[definition.name] = trigger.lambda;
    }

    this.webClient = userPool.addClient('WebClient', {
      userPoolClientName: USER_POOL.webClientName(settings.name),
      // A browser cannot keep a secret.
      generateSecret: false,
      // SRP keeps the password off the wire; USER_PASSWORD_AUTH exists only in the local home, whose
      // cognito-local has no SRP. Refresh-token sign-in is always allowed by Cognito.
      authFlows: { userSrp: true, userPassword: false, adminUserPassword: false, custom: false },
      disableOAuth: true,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.minutes(USER_POOL.accessTokenMinutes),
      idTokenValidity: Duration.minutes(USER_POOL.idTokenMinutes),
      refreshTokenValidity: Duration.days(USER_POOL.refreshTokenDays),
    });

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
      allowUnauthenticatedIdentities: false,
      authenticationProviders: {
        userPools: [new UserPoolAuthenticationProvider({ userPool, userPoolClient: this.webClient })],
      },
    });
    this.authenticatedRole = identityPool.authenticatedRole;
    this.identityPool = identityPool;

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
  }
}
