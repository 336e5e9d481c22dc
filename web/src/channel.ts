// Figures of a channel derived from its events, in base units.
import { baseUnits } from './money';
import type { ChannelEvent } from './types';

/** What the gateway charged on the channel so far: the last recorded charged total (0 when none is visible). */
export function chargedTotal(events: ChannelEvent[]): bigint {
  let total = 0n;
  for (const event of events) {
    const payload = event.payload as { chargedTotal?: string | null } | undefined;
    if (payload?.chargedTotal != null) {
      const value = baseUnits(payload.chargedTotal);
      if (value > total) total = value;
    }
  }
  return total;
}

/** Cumulative claimed amounts over time from ChannelClaimed events: [epoch seconds, base units]. */
export function claimedOverTime(events: ChannelEvent[]): [number, bigint][] {
  const points: [number, bigint][] = [];
  for (const event of events) {
    if (event.type !== 'ChannelClaimed' || !event.timestamp) continue;
    const payload = event.payload as { claimedTotal?: string; amount?: string } | undefined;
    const value = payload?.claimedTotal ?? payload?.amount;
    if (value != null) points.push([Math.floor(Date.parse(event.timestamp) / 1000), baseUnits(value)]);
  }
  return points;
}

export function explorerLink(template: string, txHash: string): string {
  return template.includes('{txHash}') ? template.replace('{txHash}', txHash) : `${template}${txHash}`;
}
