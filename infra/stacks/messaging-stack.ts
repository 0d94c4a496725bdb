import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { DeduplicationScope, FifoThroughputLimit, type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { type EnvironmentSettings, mailFrom } from '../definitions/environments';
import { QUEUES } from '../definitions/storage';
import { mapRecord } from './map-record';
import { acknowledgeDeadLetterQueue } from './nag-findings';

/** Props of the {@link MessagingStack}. */
export interface MessagingStackProps extends StackProps {
  settings: EnvironmentSettings;
}

type QueueKey = keyof typeof QUEUES;

/** The background-jobs queues from QUEUES, each with a dead-letter queue that keeps what failed. */
export class MessagingStack extends Stack {
  /** Every queue, by its key in QUEUES. */
  readonly queues: Record<QueueKey, IQueue>;
  /** The SES identity e-mail is sent from, and the sender address on it. */
  readonly mail: { identityArn: string; from: string };

  constructor(scope: Construct, id: string, props: MessagingStackProps) {
    super(scope, id, props);
    const env = props.settings.name;

    this.queues = mapRecord<QueueKey, (typeof QUEUES)[QueueKey], IQueue>(QUEUES, (definition) => {
      // High-throughput FIFO: ordering and its limits apply per message group (a device), not to the whole queue.
      const fifo = definition.fifo
        ? {
            fifo: true,
            fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
            deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
          }
        : {};
      const deadLetters = new Queue(this, `${definition.constructId}DeadLetters`, {
        ...(definition.fifo ? { fifo: true } : {}),
        queueName: definition.deadLetterName(env),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        // The longest SQS allows: failed jobs wait here until someone has looked at them.
        retentionPeriod: Duration.days(14),
      });
      acknowledgeDeadLetterQueue(deadLetters, `the ${definition.name(env)} queue`, { standalone: false });
      const queue = new Queue(this, definition.constructId, {
        ...fifo,
        queueName: definition.name(env),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
        // Domain events wait here for their worker; the default 4 days could drop them during an outage.
        retentionPeriod: Duration.days(14),
        deadLetterQueue: { queue: deadLetters, maxReceiveCount: definition.maxReceiveCount },
      });
      return queue;
    });

    // Easy DKIM: SES signs the mail; the CNAME records it lists must be published in the domain's DNS.
    const identity = new EmailIdentity(this, 'MailIdentity', { identity: Identity.domain(props.settings.mailDomain) });
    this.mail = {
      identityArn: this.formatArn({ service: 'ses', resource: 'identity', resourceName: identity.emailIdentityName }),
      from: mailFrom(props.settings),
    };
  }
}
