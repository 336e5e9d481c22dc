// The operator console's health details (GET /api/admin/health) in words: each detail under a label
// a reader knows, amounts in POL with their unit (never wei), blocks and times as such. A detail the
// service adds later still reads as words: its camelCase name split, a "…Wei" amount in POL.
import { formatPol } from './money';
import { formatTime } from './shared';

export interface HealthFact {
  key: string;
  label: string;
  value: string;
}

const LABELS: Record<string, string> = {
  state: 'State',
  checkpointBlock: 'Checkpoint',
  finalizedBlock: 'Final block',
  lagBlocks: 'Lag',
  consecutiveFailures: 'Failures in a row',
  lastFailure: 'Last failure',
  reason: 'Reason',
  detail: 'Detail',
  disabled: 'Disabled',
  faucet: 'Faucet address',
  balanceWei: 'Faucet balance',
  requiredWei: 'Needed per grant (value and gas)',
  grantWei: 'Gas money per grant',
  checkedAt: 'Checked',
};

const BLOCKS = new Set(['checkpointBlock', 'finalizedBlock']);

/** "consecutiveFailures" → "Consecutive failures"; a "…Wei" name loses its unit, which the value shows. */
export function labelOf(key: string): string {
  const known = LABELS[key];
  if (known) return known;
  const words = key.replace(/Wei$/, '').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function valueOf(key: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (key.endsWith('Wei') && /^\d+$/.test(String(value))) return `${formatPol(BigInt(String(value)))} POL`;
  if (key === 'lagBlocks') return `${value} ${value === 1 ? 'block' : 'blocks'} behind the final block`;
  if (BLOCKS.has(key)) return `block ${value}`;
  if (key.endsWith('At') && typeof value === 'string') return formatTime(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A part's details as labelled facts, in the service's order. */
export function healthFacts(details: Record<string, unknown>): HealthFact[] {
  return Object.entries(details).map(([key, value]) => ({ key, label: labelOf(key), value: valueOf(key, value) }));
}
