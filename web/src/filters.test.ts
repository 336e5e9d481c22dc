import { describe, expect, it } from 'vitest';
import { applyFilters, filtersFromSearch, filtersToSearch, NO_FILTERS, parseMinScore } from './filters';
import type { DirectoryProvider } from './types';

const online: DirectoryProvider['status'] = {
  online: true, since: null, lastChecked: null, latencyMs: null, consecutiveFailures: 0, lastError: null,
  inferenceOnline: true, inferenceError: null,
};

function approval(state: DirectoryProvider['approval']['state']): DirectoryProvider['approval'] {
  return { state, changedAt: null, reason: null };
}

function pricing(inputPer1kTokens: string, outputPer1kTokens: string) {
  return { inputPer1kTokens, outputPer1kTokens, currency: 'USDC', decimals: 6 };
}

function tokens(inputPer1kTokens: string, outputPer1kTokens: string) {
  return { kind: 'tokens' as const, inputPer1kTokens, outputPer1kTokens };
}

function provider(id: string, change: Partial<DirectoryProvider> = {}): DirectoryProvider {
  return {
    id, name: id, description: '', apiUrl: 'http://x', providerAddress: '0x0', category: 'llm', additionalCategories: [],
    tier: 'community', hotkey: null, uid: null, contact: null, docsUrl: null, chainId: 137,
    registeredAt: '2026-01-01T00:00:00Z', approval: approval('approved'), score: 0.5, status: online,
    models: [{ id: `${id}-model`, name: 'Model', pricing: pricing('0.1', '0.2'), price: tokens('100000', '200000') }], history: [],
    feedback: {
      window: 'PT168H', reports: 0, successes: 0, failures: 0, successRate: null, failureReasons: {}, wallets: 0,
      unverified: { reports: 0, successes: 0, failures: 0, successRate: null, failureReasons: {} },
    },
    telemetry: {
      window: 'PT24H', requests: 0, failures: 0, failureRate: null, failuresByStatus: {}, failuresWithoutStatus: 0,
      latencyMs: { p50: null, p95: null }, paidVolume: '0', wallets: 0,
      unverified: {
        requests: 0, failures: 0, failureRate: null, failuresByStatus: {}, failuresWithoutStatus: 0,
        latencyMs: { p50: null, p95: null }, paidVolume: '0',
      },
    },
    qualityScore: null, logoUrl: null, website: null, supportsStreaming: null, duplicateNameOf: null, ...change,
  };
}

describe('marketplace filters', () => {
  it('round-trip through the query string, leaving defaults out', () => {
    const filters = { category: 'search', model: 'gpt', tier: 'bittensor', minScore: '0.5', includeOffline: true };
    expect(filtersToSearch(filters)).toBe('?category=search&model=gpt&tier=bittensor&minScore=0.5&online=false');
    expect(filtersFromSearch(filtersToSearch(filters))).toEqual(filters);
    expect(filtersToSearch(NO_FILTERS)).toBe('');
    expect(filtersFromSearch('')).toEqual(NO_FILTERS);
  });

  it('list only approved providers, online ones unless offline ones are asked for', () => {
    const all = [provider('a'), provider('b', { approval: approval('pending') }),
      provider('c', { status: { ...online, online: false, consecutiveFailures: 3, inferenceOnline: false } })];
    expect(applyFilters(all, NO_FILTERS).map((p) => p.id)).toEqual(['a']);
    expect(applyFilters(all, { ...NO_FILTERS, includeOffline: true }).map((p) => p.id)).toEqual(['a', 'c']);
  });

  it('match a category as main or additional, a model by part of its id or name, any case', () => {
    const all = [provider('a', { category: 'search' }), provider('b', { additionalCategories: ['search'] }),
      provider('c', { models: [{ id: 'x', name: 'GPT-4o Mini', pricing: pricing('1', '1'), price: tokens('1000000', '1000000') }] })];
    expect(applyFilters(all, { ...NO_FILTERS, category: 'search' }).map((p) => p.id)).toEqual(['a', 'b']);
    expect(applyFilters(all, { ...NO_FILTERS, model: 'gpt-4O' }).map((p) => p.id)).toEqual(['c']);
    expect(applyFilters(all, { ...NO_FILTERS, model: 'B-MOD' }).map((p) => p.id)).toEqual(['b']);
  });

  it('filter by tier and minimum score, highest score first then by name', () => {
    const all = [provider('low', { score: 0.2 }), provider('zeta', { score: 0.9 }), provider('alpha', { score: 0.9 }),
      provider('miner', { tier: 'bittensor', score: null })];
    expect(applyFilters(all, { ...NO_FILTERS, minScore: '0.5' }).map((p) => p.id)).toEqual(['alpha', 'zeta']);
    expect(applyFilters(all, NO_FILTERS).map((p) => p.id)).toEqual(['alpha', 'zeta', 'low', 'miner']);
    expect(applyFilters(all, { ...NO_FILTERS, tier: 'bittensor' }).map((p) => p.id)).toEqual(['miner']);
  });

  it('ignore a minimum score outside 0 to 1', () => {
    expect(parseMinScore('0.75')).toBe(0.75);
    expect(parseMinScore('1')).toBe(1);
    expect(parseMinScore('1.5')).toBeNull();
    expect(parseMinScore('abc')).toBeNull();
  });

  it('filter 200 providers quickly', () => {
    const many = Array.from({ length: 200 }, (_, i) => provider(`p${i}`, { score: (i % 10) / 10 }));
    const started = performance.now();
    for (let i = 0; i < 100; i++) applyFilters(many, { ...NO_FILTERS, model: 'p1', minScore: '0.3' });
    expect(performance.now() - started).toBeLessThan(500);
  });
});
