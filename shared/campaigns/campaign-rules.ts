/**
 * The campaign model's rules that both sides read (docs/campaigns.md): the longest window, and a
 * campaign's status derived from its window and the clock.
 */

/** A campaign lasts at most 5 years (1827 days): long monitoring fits; a typo in the year does not. */
export const MAX_CAMPAIGN_MS = 1827 * 86_400_000;

export type CampaignStatusName = 'planned' | 'running' | 'ended';

/** Before `startsAt`: planned; from `startsAt` to `endsAt` inclusive: running; after: ended. */
export const campaignStatus = (window: { startsAt: number; endsAt: number }, now: number): CampaignStatusName =>
  now < window.startsAt ? 'planned' : now <= window.endsAt ? 'running' : 'ended';

/** Why a window is refused, or undefined when it is consistent. */
export const windowProblem = (window: { startsAt: number; endsAt: number }): string | undefined => {
  if (!(window.endsAt > window.startsAt)) return 'The campaign must end after it starts';
  if (window.endsAt - window.startsAt > MAX_CAMPAIGN_MS) {
    return `A campaign lasts at most ${MAX_CAMPAIGN_MS / 86_400_000} days`;
  }
  return undefined;
};
