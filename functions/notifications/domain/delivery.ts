import {
  DELIVERY_CHUNK_SIZE,
  type DomainEvent,
  type JobsMessage,
  type NotificationJob,
} from '../../../shared/contracts/events';
import { parseAudience } from '../../../shared/notifications/audience';
import { linksForViewer } from '../../../shared/notifications/links';
import { TOPIC_INFO } from '../../../shared/notifications/topics';
import { APP_METRICS } from '../../../shared/operations/metrics';
import { BadRequest } from '../../_shared/errors';
import { inLanes } from '../../_shared/in-lanes';
import type { Mail } from '../../_shared/mail/mailer';
import type { Counters } from '../../_shared/metrics';
import { absoluteLinks, escapeHtml, htmlToText, sanitizeBody } from './html';
import { type DeliveryTally, finalStatus, NO_TALLY, type NotificationRecord } from './notification-record';
import type { AudienceStore, DeliveryRef, DeliveryStore, NotificationStore, Person, PreferenceStore } from './ports';
import { notificationFor, peopleNamedBy } from './triggers';

/** Referents read per relation page. */
export const RELATION_PAGE = 1_000;
/**
 * An e-mail left `sending` this long was abandoned by a worker that stopped: longer than the worker may run (30 s),
 * shorter than the jobs queue's visibility timeout (180 s), after which the message comes back.
 */
export const STALE_CLAIM_MS = 90_000;
/** Attempts before an e-mail that SES keeps refusing for a passing reason is given up as failed. */
export const MAX_EMAIL_ATTEMPTS = 3;
/** Deliveries written at once within a chunk. */
const CONCURRENCY = 16;

export interface DeliveryDeps {
  notifications: NotificationStore;
  deliveries: DeliveryStore;
  preferences: PreferenceStore;
  audiences: AudienceStore;
  mailer: { send: (mail: Mail) => Promise<string> };
  queue: { send: (messages: readonly JobsMessage[]) => Promise<void> };
  now: () => number;
  /** The web app's origin, for the links in e-mail. */
  webOrigin: string;
  /** This area's API, where the one-click unsubscribe POST goes. */
  apiUrl: string;
  /** E-mails sent and given up, for the operations dashboard. */
  counters: Counters;
}

/** Some e-mail of a chunk failed for a passing reason: the message is retried for those alone. */
export class RetryLater extends Error {
  constructor(count: number) {
    super(`${count} e-mail(s) will be retried`);
    this.name = 'RetryLater';
  }
}

const chunked = <T>(items: readonly T[], size: number): T[][] => {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
};

/**
 * What a chunk's people hold now, counting only the deliveries this chunk made (a person in two selectors is in two
 * chunks, and counted by the first). Recounted from what the table holds on every run, so it never counts twice nor
 * misses a delivery a stopped run made.
 */
export const tallyOf = (items: readonly Record<string, unknown>[], chunk: string, primary: 'banner' | 'email') => {
  const tally: DeliveryTally = { ...NO_TALLY };
  for (const item of items) {
    if (item.chunk !== chunk) continue;
    if (item.method === primary) tally.recipients += 1;
    if (item.method === 'banner') tally.banners += 1;
    else if (item.status === 'sent') tally.emailsSent += 1;
    else if (item.status === 'skipped') tally.emailsSkipped += 1;
    else if (item.status === 'failed') tally.emailsFailed += 1;
  }
  return tally;
};

export const createDelivery = (deps: DeliveryDeps) => {
  const settle = async (record: NotificationRecord | undefined) => {
    const status = record && finalStatus(record);
    if (record && status) await deps.notifications.setStatus(record.id, status, ['sending'], deps.now());
  };

  /** One page of one selector: its people are queued in chunks, then the next page (or selector) is. */
  const resolvePage = async (notificationId: string, selector: number, page: number, cursor?: string) => {
    const record = await deps.notifications.get(notificationId);
    if (record?.status !== 'sending') return 'not sending';
    const pageKey = `${selector}.${page}`;
    if (record.pagesDone.includes(pageKey)) return 'page done before';
    const audience = parseAudience(record.audience[selector] ?? '');
    let found: { ids: string[]; nextCursor?: string } = { ids: [] };
    if (!('error' in audience)) {
      if (audience.kind === 'user') found = { ids: [audience.userId] };
      else if (audience.kind === 'relation')
        found = await deps.audiences.relationPage(audience.relationType, audience.referrerId, cursor, RELATION_PAGE);
      else found = await deps.audiences.groupPage(audience.group, cursor);
    }
    const chunks = chunked([...new Set(found.ids)], DELIVERY_CHUNK_SIZE).map((recipients, index) => ({
      chunk: `${pageKey}.${index}`,
      recipients,
    }));
    await deps.notifications.planChunks(
      notificationId,
      chunks.map((c) => c.chunk),
    );
    const next: NotificationJob[] = found.nextCursor
      ? [{ kind: 'notification.resolve', notificationId, selector, page: page + 1, cursor: found.nextCursor }]
      : selector + 1 < record.audience.length
        ? [{ kind: 'notification.resolve', notificationId, selector: selector + 1, page: 0 }]
        : [];
    await deps.queue.send([
      ...chunks.map((c) => ({ kind: 'notification.deliver' as const, notificationId, ...c })),
      ...next,
    ]);
    await settle(await deps.notifications.markPageDone(notificationId, pageKey, next.length === 0));
    return { people: found.ids.length, chunks: chunks.length, more: next.length > 0 };
  };

  /** Starts (or, after a stop, continues) sending: `sending`, then the first audience page. */
  const send = async (notificationId: string) => {
    const record = await deps.notifications.get(notificationId);
    if (!record) return 'no such notification';
    if (record.status === 'created' || record.status === 'queued') {
      await deps.notifications.setStatus(notificationId, 'sending', ['created', 'queued'], deps.now());
    } else if (record.status !== 'sending') {
      return `already ${record.status}`;
    }
    return resolvePage(notificationId, 0, 0);
  };

  /** `knownToken`: the person's unsubscribe token when their preferences were read already (made on first use). */
  const mailFor = async (
    record: NotificationRecord,
    person: Person & { email: string },
    knownToken: string | undefined,
  ): Promise<Mail> => {
    const origin = deps.webOrigin.replace(/\/$/, '');
    const body = absoluteLinks(linksForViewer(record.body, person.rolesList), origin);
    const open = `${origin}/dashboard/notifications/${encodeURIComponent(record.id)}`;
    const topic = TOPIC_INFO[record.topic];
    let footerHtml = `<p><a href="${open}">Open this notification</a></p>`;
    let footerText = `Open this notification: ${open}`;
    const headers: { name: string; value: string }[] = [];
    if (!topic.locked) {
      const token = knownToken ?? (await deps.preferences.tokenOf(person.id));
      const query = `token=${encodeURIComponent(token)}&topic=${encodeURIComponent(record.topic)}`;
      const page = `${origin}/unsubscribe?${query}`;
      footerHtml += `<p style="color:#666;font-size:12px">You get this e-mail about ${escapeHtml(topic.label)}. <a href="${page}">Unsubscribe from these e-mails</a> or choose in your <a href="${origin}/dashboard/notifications">notification settings</a>.</p>`;
      footerText += `\n\nYou get this e-mail about ${topic.label}. Unsubscribe: ${page}`;
      headers.push(
        { name: 'List-Unsubscribe', value: `<${deps.apiUrl.replace(/\/$/, '')}/unsubscribe?${query}>` },
        { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
      );
    }
    return {
      to: [person.email],
      subject: record.title,
      html: `${body}\n${footerHtml}`,
      text: `${htmlToText(body)}\n\n${footerText}`,
      headers,
    };
  };

  /**
   * One chunk of people: a banner and an e-mail each, as the methods say, each delivery at most once. What the chunk's
   * people already hold is read first (one BatchGetItem per 100), so a redelivered chunk writes and sends nothing it
   * made before; the missing banners are written in batches of 25, each e-mail is claimed on its own.
   */
  const deliver = async (notificationId: string, chunk: string, recipients: readonly string[]) => {
    const record = await deps.notifications.get(notificationId);
    if (!record || record.chunksDone.includes(chunk)) return 'chunk done before';
    const people = await deps.audiences.people(recipients);
    const methods = record.methods.filter((method) => method === 'banner' || method === 'email');
    const ref = (userId: string, method: 'banner' | 'email'): DeliveryRef => ({
      userId,
      method,
      notificationId,
      created: record.created,
      chunk,
    });
    const key = (userId: string, method: string) => `${method}#${userId}`;
    const held = new Map(
      (await deps.deliveries.readMany(people.flatMap((person) => methods.map((method) => ref(person.id, method))))).map(
        (item) => [key(item.userId as string, item.method as string), item],
      ),
    );
    let retries = 0;

    if (methods.includes('banner')) {
      const missing = people.filter((person) => !held.has(key(person.id, 'banner')));
      const now = deps.now();
      await deps.deliveries.putBanners(
        missing.map((person) => ref(person.id, 'banner')),
        {
          icon: record.icon,
          requireInteraction: record.requireInteraction,
          topic: record.topic,
          title: record.title,
          body: record.body,
          initiator: record.initiator,
        },
        now,
      );
      for (const person of missing)
        held.set(key(person.id, 'banner'), { method: 'banner', chunk, status: 'delivered' });
    }

    if (methods.includes('email')) {
      const preferences = await deps.preferences.getMany(people.map((p) => p.id));
      const locked = TOPIC_INFO[record.topic].locked;
      const settled = new Set(['sent', 'skipped', 'failed']);
      const open = people.filter((person) => !settled.has(held.get(key(person.id, 'email'))?.status as string));
      await inLanes(open, CONCURRENCY, async (person) => {
        const email = ref(person.id, 'email');
        const mark = (status: string) => {
          const before = held.get(key(person.id, 'email'));
          held.set(key(person.id, 'email'), { method: 'email', chunk: before?.chunk ?? chunk, status });
        };
        const now = deps.now();
        const skipReason = !person.email
          ? 'No e-mail address'
          : !locked && preferences.get(person.id)?.emailOff.includes(record.topic)
            ? 'E-mail for this topic is turned off'
            : undefined;
        if (skipReason) {
          if (await deps.deliveries.putSkipped(email, skipReason, now)) mark('skipped');
          return;
        }
        const claim = await deps.deliveries.claimEmail(email, now, STALE_CLAIM_MS);
        if (!claim.claimed) {
          // Another worker holds it (or stopped holding it moments ago): this chunk is not done until that e-mail is.
          if (claim.busy) retries += 1;
          // Settled by another worker since this one read the chunk: counted as the store has it, or this chunk's
          // tally, written last, would overwrite that worker's with the e-mail left out (a duplicate delivery's race).
          else if (claim.status) mark(claim.status);
          return;
        }
        try {
          const messageId = await deps.mailer.send(
            await mailFor(record, person as Person & { email: string }, preferences.get(person.id)?.token),
          );
          if (await deps.deliveries.markEmail(email, 'sent', deps.now(), { messageId })) {
            mark('sent');
            deps.counters.count(APP_METRICS.notificationsSent);
          }
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          if (error instanceof BadRequest || claim.attempts >= MAX_EMAIL_ATTEMPTS) {
            if (await deps.deliveries.markEmail(email, 'failed', deps.now(), { reason })) {
              mark('failed');
              deps.counters.count(APP_METRICS.notificationsFailed);
            }
          } else {
            await deps.deliveries.markEmail(email, 'retry', deps.now(), { reason });
            retries += 1;
          }
        }
      });
    }

    // A worker with e-mail still to retry writes no tally: its view is partial, and written after a duplicate's
    // complete one (two workers on one chunk) it would stand, as the retry finds the chunk done and stops.
    if (retries) throw new RetryLater(retries);
    const tally = tallyOf([...held.values()], chunk, methods.includes('banner') ? 'banner' : 'email');
    await settle(await deps.notifications.tally(notificationId, chunk, tally, true));
    return { people: people.length, ...tally };
  };

  /** A domain event becomes its notification (once, whatever the redeliveries), which is then sent. */
  const onEvent = async (event: DomainEvent) => {
    const names = new Map(
      (await deps.audiences.people(peopleNamedBy(event))).map((p) => [p.id, p.displayName || p.email || p.id]),
    );
    const made = notificationFor(event, (id) => names.get(id) ?? id);
    if (!made) return 'nobody to tell';
    const now = deps.now();
    await deps.notifications.create({
      ...made.input,
      body: sanitizeBody(made.input.body),
      id: made.id,
      initiator: { id: made.initiatorId, type: 'user-id' },
      status: 'queued',
      created: event.at,
      updated: now,
      source: made.source,
      ...NO_TALLY,
      chunksPlanned: [],
      chunksDone: [],
      pagesDone: [],
    });
    return send(made.id);
  };

  return {
    send,
    resolvePage,
    deliver,
    onEvent,
    /** One jobs-queue message. */
    work: (message: JobsMessage) => {
      switch (message.kind) {
        case 'notification.send':
          return send(message.notificationId);
        case 'notification.resolve':
          return resolvePage(message.notificationId, message.selector, message.page, message.cursor);
        case 'notification.deliver':
          return deliver(message.notificationId, message.chunk, message.recipients);
        default:
          return onEvent(message);
      }
    },
  };
};

export type Delivery = ReturnType<typeof createDelivery>;
