// What the provider's dashboard computes from its API answer (GET /api/provider/dashboard): the
// time a channel at risk has left, a claim's net payout, and the daily figures as the chart's
// points. Amounts stay bigint base units, in the chart too (components/AmountChart).
import { baseUnits } from '../money';
import type { ProviderDashboard } from '../types';

type AtRisk = ProviderDashboard['atRisk'][number];
type Day = ProviderDashboard['days'][number];
type Claim = ProviderDashboard['claims'][number];

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** 0 → "expired", 90 → "1 min", 3_900 → "1 h 5 min", 183_600 → "2 d 3 h": the two largest units. */
export function timeLeft(seconds: number): string {
  if (seconds <= 0) return 'expired';
  if (seconds < HOUR) return `${Math.max(1, Math.floor(seconds / MINUTE))} min`;
  if (seconds < DAY) {
    const minutes = Math.floor((seconds % HOUR) / MINUTE);
    return `${Math.floor(seconds / HOUR)} h${minutes ? ` ${minutes} min` : ''}`;
  }
  const hours = Math.floor((seconds % DAY) / HOUR);
  return `${Math.floor(seconds / DAY)} d${hours ? ` ${hours} h` : ''}`;
}

/** Why a channel is at risk, in words: the consumer may close it now, or from its expiry on. */
export function riskReason(channel: Pick<AtRisk, 'closing' | 'secondsLeft'>): string {
  if (channel.closing) return 'closing: a close authorization is out';
  if (channel.secondsLeft <= 0) return 'expired: the consumer may close it now';
  return `expires in ${timeLeft(channel.secondsLeft)}`;
}

/**
 * What a claim put in the provider's wallet: its payout (the increment of the claimed total, gross)
 * less the contract's fee on it.
 */
export function received(claim: Pick<Claim, 'payout' | 'fee'>): bigint {
  return baseUnits(claim.payout) - baseUnits(claim.fee);
}

/** The days as the chart draws them: the API's days and no other, oldest first. */
export interface DayPoints {
  /** each day's start (epoch seconds, UTC midnight) */
  starts: number[];
  /** the days as the table writes them (YYYY-MM-DD) */
  labels: string[];
  charged: bigint[];
  claimed: bigint[];
}

/**
 * The chart's points: exactly the days of the table, each at its UTC midnight, with its charged and
 * claimed base units. A day without activity is not in the answer, so it has no point either.
 */
export function dayPoints(days: Day[]): DayPoints {
  const sorted = [...days].sort((a, b) => a.day.localeCompare(b.day));
  return {
    starts: sorted.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000),
    labels: sorted.map((d) => d.day),
    charged: sorted.map((d) => baseUnits(d.charged)),
    claimed: sorted.map((d) => baseUnits(d.claimed)),
  };
}
