// Marketplace filters: kept in the page's query string so a filtered view can be shared, and
// applied to the directory in the browser (the same rules as GET /api/mcp/providers' filters).
import type { DirectoryProvider } from './types';

export interface MarketFilters {
  category: string;
  model: string;
  tier: string;
  minScore: string;
  includeOffline: boolean;
}

export const NO_FILTERS: MarketFilters = { category: '', model: '', tier: '', minScore: '', includeOffline: false };

export function filtersFromSearch(search: string): MarketFilters {
  const params = new URLSearchParams(search);
  return {
    category: params.get('category') ?? '',
    model: params.get('model') ?? '',
    tier: params.get('tier') ?? '',
    minScore: params.get('minScore') ?? '',
    includeOffline: params.get('online') === 'false',
  };
}

/** The query string of a filtered view, empty filters left out, in a stable order; '' when none. */
export function filtersToSearch(filters: MarketFilters): string {
  const params = new URLSearchParams();
  if (filters.category) params.set('category', filters.category);
  if (filters.model.trim()) params.set('model', filters.model.trim());
  if (filters.tier) params.set('tier', filters.tier);
  if (filters.minScore) params.set('minScore', filters.minScore);
  if (filters.includeOffline) params.set('online', 'false');
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A minimum score the filter can use: a number from 0 to 1, or none. */
export function parseMinScore(text: string): number | null {
  if (!/^\s*(0(\.\d+)?|1(\.0+)?|\.\d+)\s*$/.test(text)) return null;
  return Number(text);
}

/** Listed providers (approved), in the API's order: highest score first, then by name. */
export function applyFilters(providers: DirectoryProvider[], filters: MarketFilters): DirectoryProvider[] {
  const model = filters.model.trim().toLowerCase();
  const minScore = parseMinScore(filters.minScore);
  return providers
    .filter((p) => p.approval?.state === 'approved')
    .filter((p) => filters.includeOffline || p.status?.online)
    .filter((p) => !filters.category || p.category === filters.category
      || (p.additionalCategories ?? []).includes(filters.category))
    .filter((p) => !filters.tier || p.tier === filters.tier)
    .filter((p) => minScore === null || (p.score ?? 0) >= minScore)
    .filter((p) => !model || (p.models ?? []).some((m) => m.id.toLowerCase().includes(model)
      || (m.name ?? '').toLowerCase().includes(model)))
    .sort((a, b) => (b.score ?? 0) - (a.score ?? 0) || a.name.localeCompare(b.name));
}
