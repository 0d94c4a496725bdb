import { createHash } from 'node:crypto';
import type { DomainEvent } from '../../../shared/contracts/events';
import { type AlertChanged, NOTIFIED_RELATION_TYPES } from '../../../shared/contracts/events';
import type { NotificationInput } from '../../../shared/contracts/notifications';
import { managersOf } from '../../../shared/notifications/audience';
import { labelOf } from '../../../shared/sensor-data/measurements';
import { escapeHtml } from './html';

/** A trigger's notification: the input staff would write, with the initiator and an id fixed by the event. */
export interface TriggeredNotification {
  id: string;
  input: Required<Omit<NotificationInput, 'status' | 'initiator'>>;
  initiatorId: string;
  source: string;
}

/** The same event always makes the same notification id, so a redelivered event finds it made. */
export const notificationIdOf = (eventId: string): string =>
  `ev-${createHash('sha256').update(eventId).digest('hex').slice(0, 32)}`;

const link = (path: string, text: string) => `<a href="${path}">${escapeHtml(text)}</a>`;

/** What the trigger needs to know about the people an event names, to write their names (ids when unknown). */
export type NameOf = (userId: string) => string;

const ROLE_WORDS = { Administrators: 'Administrators', Employees: 'Employees' } as const;

/**
 * Spec §6: which domain event tells whom. Role grants and removals of Administrators or Employees tell every
 * administrator; a device owner or administrator gained or lost tells that person (unless they made the change
 * themselves); a device joining or leaving an organization tells the organization's managers; an API quota crossing
 * tells the key's owner. Other events tell nobody (undefined).
 */
export const notificationFor = (event: DomainEvent, nameOf: NameOf): TriggeredNotification | undefined => {
  const base = { id: notificationIdOf(event.eventId), initiatorId: event.actorId, source: event.eventId };
  const common = {
    icon: 'info' as const,
    requireInteraction: false,
    methods: ['banner', 'email'] as ('banner' | 'email')[],
  };
  switch (event.kind) {
    case 'role.changed': {
      const person = link(`/dashboard/people/${encodeURIComponent(event.userId)}`, nameOf(event.userId));
      const actor = link(`/dashboard/people/${encodeURIComponent(event.actorId)}`, nameOf(event.actorId));
      const group = ROLE_WORDS[event.group];
      return {
        ...base,
        input: {
          ...common,
          topic: 'roles',
          audience: ['role:roleName=Administrators'],
          title:
            event.change === 'added'
              ? `${nameOf(event.userId)} was granted the ${group} role`
              : `${nameOf(event.userId)} no longer has the ${group} role`,
          body:
            event.change === 'added'
              ? `<p>${person} was granted the <strong>${group}</strong> role by ${actor}.</p>`
              : `<p>${person} was removed from the <strong>${group}</strong> role by ${actor}.</p>`,
          // A change of who runs the platform is kept on screen until an administrator has seen it.
          requireInteraction: true,
        },
      };
    }
    case 'relation.changed': {
      const { relation, change } = event;
      if (!(NOTIFIED_RELATION_TYPES as readonly string[]).includes(relation.type)) return undefined;
      const device = link(
        `/dashboard/devices/${encodeURIComponent(relation.type === 'organization-device' ? relation.referentId : relation.referrerId)}`,
        `device ${relation.type === 'organization-device' ? relation.referentId : relation.referrerId}`,
      );
      if (relation.type === 'organization-device') {
        const organization = link(
          `/dashboard/organizations/${encodeURIComponent(relation.referrerId)}`,
          `organization ${relation.referrerId}`,
        );
        return {
          ...base,
          input: {
            ...common,
            topic: 'organizations',
            audience: managersOf({ kind: 'organization', id: relation.referrerId }),
            title:
              change === 'added'
                ? `Device ${relation.referentId} joined organization ${relation.referrerId}`
                : `Device ${relation.referentId} left organization ${relation.referrerId}`,
            body: `<p>${device} ${change === 'added' ? 'was added to' : 'was removed from'} ${organization} by ${escapeHtml(nameOf(event.actorId))}.</p>`,
          },
        };
      }
      // device-owner, device-administrator: the person is the referent.
      if (relation.referentId === event.actorId) return undefined;
      const role = relation.type === 'device-owner' ? 'the owner' : 'an administrator';
      return {
        ...base,
        input: {
          ...common,
          topic: 'devices',
          audience: [`user:userId=${relation.referentId}`],
          title:
            change === 'added'
              ? `You are now ${role} of device ${relation.referrerId}`
              : `You are no longer ${role} of device ${relation.referrerId}`,
          body: `<p>${escapeHtml(nameOf(event.actorId))} ${change === 'added' ? 'made you' : 'removed you as'} ${role} of ${device}.</p>`,
        },
      };
    }
    case 'billing.notice': {
      const devices = event.deviceIds
        .map((id) => link(`/dashboard/devices/${encodeURIComponent(id)}`, `device ${id}`))
        .join(', ');
      const invoice = event.invoiceUrl ? ` <a href="${escapeHtml(event.invoiceUrl)}">Pay the invoice</a>.` : '';
      return {
        ...base,
        input: {
          ...common,
          topic: 'billing',
          audience: [`user:userId=${event.actorId}`],
          requireInteraction: event.notice === 'payment_failed',
          title:
            event.notice === 'payment_failed'
              ? `Payment failed for ${event.productName}`
              : `The trial of ${event.productName} ends soon`,
          body:
            event.notice === 'payment_failed'
              ? `<p>We could not take the payment for ${escapeHtml(event.productName)} (${devices}). The tier stays while Stripe retries; update your card to keep it.${invoice}</p>`
              : `<p>The trial of ${escapeHtml(event.productName)} (${devices}) ends on ${new Date(event.trialEnd ?? event.at).toISOString().slice(0, 10)}; the subscription then continues at its price unless you cancel it.</p>`,
        },
      };
    }
    case 'rollout.halted': {
      const release = `${event.productLine} ${event.version}`;
      const { audience } = event;
      const staff = audience.kind === 'staff';
      const listed = event.failures
        .map(
          (failure) =>
            `<li>${link(`/dashboard/devices/${encodeURIComponent(failure.deviceId)}`, `device ${failure.deviceId}`)}: ` +
            `${failure.state === 'timed_out' ? 'timed out (no report in time)' : 'failed'}` +
            `${failure.reason ? `: ${escapeHtml(failure.reason)}` : ''}</li>`,
        )
        .join('');
      const more = event.failureCount - event.failures.length;
      const failures =
        event.failureCount === 0
          ? `<p>No device ${staff ? 'of the rollout' : 'of yours'} failed.</p>`
          : `<p>${event.failureCount} ${event.failureCount === 1 ? 'device' : 'devices'} ${staff ? '' : 'of yours '}failed or timed out:</p><ul>${listed}</ul>${more > 0 ? `<p>and ${more} more.</p>` : ''}`;
      return {
        ...base,
        input: {
          ...common,
          icon: 'warning',
          topic: 'firmware',
          audience:
            audience.kind === 'staff'
              ? audience.userIds.map((userId) => `user:userId=${userId}`)
              : managersOf({ kind: 'organization', id: audience.organizationId }),
          title: `Firmware update ${release} halted${event.automatic ? ' automatically' : ''}`,
          body:
            `<p>The rollout of firmware ${escapeHtml(release)} was halted in stage ${escapeHtml(event.stageName)}: ` +
            `${escapeHtml(event.reason)}. ${staff ? 'No device is offered it until someone resumes or rolls it back.' : 'Your devices are not offered it while it is halted.'}</p>${failures}` +
            (staff
              ? `<p>${link(`/admin/rollouts/${encodeURIComponent(event.rolloutId)}`, 'Open the rollout')}</p>`
              : ''),
          requireInteraction: staff,
        },
      };
    }
    case 'webhook.disabled': {
      const log = link(`/dashboard/webhooks/${encodeURIComponent(event.webhookId)}`, 'its delivery log');
      const target = link(
        `/dashboard/${event.targetKind === 'device' ? 'devices' : event.targetKind === 'campaign' ? 'campaigns' : 'organizations'}/${encodeURIComponent(event.targetId)}`,
        `${event.targetKind} ${event.targetId}`,
      );
      const why =
        event.reason === 'gone'
          ? 'it answered 410 Gone, which asks us to stop'
          : `it has failed every delivery since ${new Date(event.failingSince ?? event.at).toISOString().replace('T', ' ').slice(0, 16)} UTC (24 hours)`;
      return {
        ...base,
        input: {
          ...common,
          icon: 'warning',
          topic: 'integrations',
          // Whoever made it, and whoever may manage the target's webhooks now (its maker may have left it).
          audience: [`user:userId=${event.actorId}`, ...managersOf({ kind: event.targetKind, id: event.targetId })],
          requireInteraction: true,
          title: `Webhook turned off: ${event.url.length > 80 ? `${event.url.slice(0, 77)}…` : event.url}`,
          body:
            `<p>The webhook of ${target} to <code>${escapeHtml(event.url)}</code> was turned off: ${why}.</p>` +
            `<p>${event.reason === 'gone' ? 'New events are no longer kept for it.' : 'Its events are kept (30 days) and sent, in order, once it is on again.'} See ${log}, fix the receiver and turn the webhook on again.</p>`,
        },
      };
    }
    case 'alert.changed': {
      return {
        ...base,
        input: {
          ...common,
          topic: 'alerts',
          audience: event.audience,
          // A firing alert stays on the bar until the person has seen it; its resolution comes and goes.
          requireInteraction: event.change !== 'resolved',
          ...alertNotification(event),
        },
      };
    }
    case 'api.quota': {
      const full = event.threshold === 100;
      if (event.deviceId === undefined) {
        return {
          ...base,
          input: {
            ...common,
            topic: 'api-quota',
            audience: [`user:userId=${event.actorId}`],
            title: `Your API keys used ${event.threshold} % of your allowance for public devices for ${event.month}`,
            body:
              `<p>Your API keys read other people's public devices ${event.used} times in ${event.month} (UTC), ` +
              `${event.threshold} % of your own ${event.limit} requests (the best tier with API access among your devices).` +
              `${full ? ' Further requests to public devices are refused until the month ends or one of your devices gets a higher tier.' : ''}</p>` +
              `<p>${link('/dashboard/api', 'See your API usage')}</p>`,
            requireInteraction: full,
          },
        };
      }
      const device = link(`/dashboard/devices/${encodeURIComponent(event.deviceId)}`, `device ${event.deviceId}`);
      return {
        ...base,
        input: {
          ...common,
          topic: 'api-quota',
          audience: [`user:userId=${event.actorId}`],
          title: `Device ${event.deviceId} used ${event.threshold} % of its API quota for ${event.month}`,
          body:
            `<p>The public API read ${device} ${event.used} times in ${event.month} (UTC), ${event.threshold} % of its ` +
            `${event.limit} requests.${full ? ' Further requests are refused until the month ends or the device gets a higher tier.' : ''}</p>` +
            `<p>${link('/dashboard/api', 'See your API usage')}</p>`,
          requireInteraction: full,
        },
      };
    }
  }
};

/** `2026-03-12 14:05 UTC`: a time in a notification, the same for every reader. */
const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const amount = (value: number | undefined, unit: string | undefined) =>
  value === undefined ? '' : `${value}${unit ? ` ${unit}` : ''}`;

/**
 * An alert's notification (docs/alerts.md): titled with the rule's name, saying the measurement, the value and the
 * limit (or how long the device was silent, or when its plan ends), with a link to the device page at that time.
 */
const alertNotification = (event: AlertChanged): Pick<TriggeredNotification['input'], 'title' | 'body' | 'icon'> => {
  const device = link(
    `/dashboard/devices/${encodeURIComponent(event.deviceId)}?at=${event.at}`,
    event.deviceName ? `${event.deviceName}` : `device ${event.deviceId}`,
  );
  const since = event.change === 'reminder' ? ` It has been firing since ${utc(event.firedAt)}.` : '';
  const title = `${event.ruleName}: ${event.change === 'resolved' ? 'resolved' : event.change === 'fired' ? 'firing' : 'still firing'}`;
  const icon = event.change === 'resolved' ? ('success' as const) : ('warning' as const);
  if (event.condition === 'threshold') {
    const what = escapeHtml(labelOf(event.measurement ?? ''));
    const limit = escapeHtml(amount(event.limit, event.unit));
    const value = escapeHtml(amount(event.value, event.unit));
    const clear = escapeHtml(amount(event.clearLevel, event.unit));
    const back = event.direction === 'above' ? 'below' : 'above';
    return {
      title,
      icon,
      body:
        event.change === 'resolved'
          ? `<p><strong>${what}</strong> on ${device} is back ${back} ${clear}: <strong>${value}</strong> at ${utc(event.at)} (the limit is ${event.direction} ${limit}).</p>`
          : `<p><strong>${what}</strong> on ${device} was <strong>${value}</strong> at ${utc(event.at)}, ${event.direction} the limit of ${limit}; it clears ${back} ${clear}.${since}</p>`,
    };
  }
  if (event.condition === 'silence') {
    const minutes = Math.round((event.afterSeconds ?? 0) / 60);
    return {
      title,
      icon,
      body:
        event.change === 'resolved'
          ? `<p>${device} reports again: a reading arrived at ${utc(event.at)}.</p>`
          : `<p>${device} has sent no reading for more than ${minutes} min (noticed at ${utc(event.firedAt)}).${since}</p>`,
    };
  }
  const ends = event.endsAt === undefined ? '' : ` on ${utc(event.endsAt)}`;
  return {
    title,
    icon,
    body:
      event.change === 'resolved'
        ? `<p>The plan of ${device} no longer ends within ${event.daysBefore ?? 0} days.</p>`
        : event.reason === 'trial'
          ? `<p>The trial of ${device} ends${ends}.${since}</p>`
          : `<p>The plan of ${device} lapses${ends}: its tier stops then unless it is renewed.${since}</p>`,
  };
};

/** The people an event names, whose names its notification writes. */
export const peopleNamedBy = (event: DomainEvent): string[] =>
  event.kind === 'role.changed' ? [event.userId, event.actorId] : event.kind === 'alert.changed' ? [] : [event.actorId];
