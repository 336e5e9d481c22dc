import { describe, expect, it } from 'vitest';
import { roleCovers } from './skillRoles';
import type { DirectoryProvider } from './types';

function provider(id: string, category: string, models: string[], state = 'approved', additionalCategories: string[] = []): DirectoryProvider {
  return {
    id, name: id, description: '', apiUrl: `https://${id}.example`, providerAddress: '0x0000000000000000000000000000000000000001',
    category, additionalCategories, tier: 'community', chainId: 137, registeredAt: '2026-01-01T00:00:00Z',
    approval: { state }, score: null, status: { online: true, consecutiveFailures: 0 },
    models: models.map((m) => ({ id: m, name: m, pricing: { inputPer1kTokens: '0.001', outputPer1kTokens: '0.002' } })),
    history: [],
  } as unknown as DirectoryProvider;
}

const roles = [
  { role: 'searcher', category: 'search', models: ['web-search'], deposit: '0.20' },
  { role: 'analyst', category: 'llm', models: ['gpt-4o', 'llama-3.1-405b-instruct'], deposit: '1.00' },
  { role: 'any', models: ['page-to-markdown'], deposit: '0.10' },
];

describe('who fills a skill\'s roles', () => {
  it('names the listed providers of the category that offer one of the models', () => {
    const llm = provider('llm-1', 'llm', ['gpt-4o']);
    const search = provider('search-1', 'data', ['web-search'], 'approved', ['search']);
    const scraper = provider('scraper-1', 'scraping', ['page-to-markdown']);
    const covers = roleCovers(roles, [llm, search, scraper]);
    expect(covers.map((c) => [c.role, c.providers.map((p) => p.id), c.missing])).toEqual([
      ['searcher', ['search-1'], undefined], ['analyst', ['llm-1'], undefined], ['any', ['scraper-1'], undefined]]);
  });

  it('says when no listed provider offers the category, or none of it the models', () => {
    const covers = roleCovers(roles, [provider('llm-1', 'llm', ['mistral-large'])]);
    expect(covers.map((c) => c.missing)).toEqual([
      'no listed provider offers the category search',
      'no listed llm provider offers any of the models gpt-4o, llama-3.1-405b-instruct',
      'no listed provider offers the model page-to-markdown',
    ]);
  });

  it('counts only listed providers: a pending or suspended one fills nothing', () => {
    const covers = roleCovers(roles.slice(0, 1), [provider('s-1', 'search', ['web-search'], 'pending'),
      provider('s-2', 'search', ['web-search'], 'suspended')]);
    expect(covers[0].missing).toBe('no listed provider offers the category search');
  });
});
