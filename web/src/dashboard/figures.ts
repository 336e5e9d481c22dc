// What the provider's dashboard computes from its API answer (GET /api/provider/dashboard): the
// time a channel at risk has left, and the daily figures as chart columns. Amounts stay bigint
// base units; only the chart's points are numbers (whole cents), never the figures shown as text.
import type { ProviderDashboard } from '../types';

type AtRisk = ProviderDashboard['atRisk'][number];
type Day = ProviderDashboard['days'][number];

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

/** Whole cents of a base-unit amount, for drawing only (integer division first: no rounding error). */
export function cents(units: string): number {
  return Number(BigInt(units) / 10_000n) / 100;
}

/**
 * uPlot's columns for the days: each day's start (epoch seconds) from the first day to the last,
 * a day without activity at zero, then charged and claimed in USDC. A single day starts from the
 * day before it, so that a line is drawn rather than a lone point on a year-long axis.
 */
export function dayColumns(days: Day[]): number[][] {
  const columns: number[][] = [[], [], []];
  if (days.length === 0) return columns;
  const byStart = new Map(days.map((d) => [Date.parse(`${d.day}T00:00:00Z`) / 1000, d]));
  const starts = [...byStart.keys()];
  const last = Math.max(...starts);
  const first = days.length === 1 ? last - DAY : Math.min(...starts);
  for (let start = first; start <= last; start += DAY) {
    const day = byStart.get(start);
    columns[0].push(start);
    columns[1].push(day ? cents(day.charged) : 0);
    columns[2].push(day ? cents(day.claimed) : 0);
  }
  return columns;
}
