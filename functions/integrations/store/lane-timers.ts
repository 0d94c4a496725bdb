import type { LaneWakeSender } from '../../_shared/integrations/webhook-outbox';
import type { LaneTimers } from '../domain/ports';

/** SQS's longest message delay: a longer wait is a chain of such hops, each checking the lane's timer. */
export const MAX_DELAY_SECONDS = 900;

/**
 * A lane's retry timers as delayed messages on the integrations queue (docs/decisions/055-webhook-delivery.md): the
 * message carries the timer's token and is delayed until it is due, or by 15 minutes when it is further off; a message
 * that comes early hops on the same way.
 */
export const createLaneTimers = ({ wakes }: { wakes: Pick<LaneWakeSender, 'send'> }): LaneTimers => {
  const send = async (webhookId: string, timer: { token: string; dueAt: number }, now: number) => {
    const delaySeconds = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil((timer.dueAt - now) / 1000)));
    await wakes.send([{ kind: 'lane.wake', webhookId, token: timer.token, dueAt: timer.dueAt, delaySeconds }]);
  };
  return { start: send, hop: send };
};
