// What the provider's dashboard says of its chain listener (the `listener` member of
// GET /api/provider/dashboard): whether the figures around it see the chain's present.
import type { ProviderDashboard } from '../types';
import { timeLeft } from './figures';

export type Listener = NonNullable<ProviderDashboard['listener']>;

/** Chain time in words: 45 → "45 s", 4_200 → "1 h 10 min". */
export function chainTime(seconds: number): string {
  return seconds < 60 ? `${Math.max(0, seconds)} s` : timeLeft(seconds);
}

/** True when the figures may not see the chain's latest blocks: the listener is behind, or not UP. */
export function listenerAlert(listener: Listener): boolean {
  return listener.status !== 'UP' || listener.behindSince !== undefined;
}

/** The listener's state in one sentence. */
export function listenerSummary(listener: Listener): string {
  const recorded = listener.checkpointBlock < 0 ? 'nothing recorded yet'
    : `recorded up to block ${listener.checkpointBlock}`;
  if (listener.behindSince !== undefined) {
    const time = listener.secondsBehind >= 0 ? ` (${chainTime(listener.secondsBehind)} of chain time)` : '';
    return `Behind the chain: ${recorded}, ${listener.blocksBehind} blocks${time} behind the head (block `
      + `${listener.headBlock}). These figures miss the latest blocks, and the watchtower claims nothing until the`
      + ' ledger has caught up.';
  }
  if (listener.status === 'DOWN') return `Not following the chain (${listener.reason ?? 'DOWN'}): ${recorded}.`;
  if (listener.status !== 'UP') return 'Starting: the listener has not read the chain yet.';
  return `Following the chain: ${recorded}, ${listener.blocksBehind} blocks below the head (block ${listener.headBlock}).`;
}
