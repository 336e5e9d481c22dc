import { describe, expect, it } from 'vitest';
import { applyFilters, filtersFromSearch, filtersToSearch, NO_FILTERS, parseMinScore } from './filters';
import type { DirectoryProvider } from './types';

function provider(id: string, change: Partial<DirectoryProvider> = {}): DirectoryProvider {
  return {
    id, name: id, description: '', apiUrl: 'http://x', providerAddress: '0x0', category: 'llm', additionalCategories: [],
    tier: 'community', chainId: 137, registeredAt: '2026-01-01T00:00:00Z', approval: { state: 'approved' }, score: 0.5,
    status: { online: true, consecutiveFailures: 0, inferenceOnline: true }, models: [{ id: `${id}-model`, name: 'Model', pricing: { inputPer1kTokens: '0.1', outputPer1kTokens: '0.2' } }],
    history: [], ...change,
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
    const all = [provider('a'), provider('b', { approval: { state: 'pending' } }),
      provider('c', { status: { online: false, consecutiveFailures: 3, inferenceOnline: false } })];
    expect(applyFilters(all, NO_FILTERS).map((p) => p.id)).toEqual(['a']);
    expect(applyFilters(all, { ...NO_FILTERS, includeOffline: true }).map((p) => p.id)).toEqual(['a', 'c']);
  });

  it('match a category as main or additional, a model by part of its id or name, any case', () => {
    const all = [provider('a', { category: 'search' }), provider('b', { additionalCategories: ['search'] }),
      provider('c', { models: [{ id: 'x', name: 'GPT-4o Mini', pricing: { inputPer1kTokens: '1', outputPer1kTokens: '1' } }] })];
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
