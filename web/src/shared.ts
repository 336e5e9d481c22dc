// Data several pages read once per page load.
import { getJson } from './api';
import type { Signing, WebSettings } from './types';

let signing: Promise<Signing> | null = null;
let settings: Promise<WebSettings> | null = null;

export function signingInfo(): Promise<Signing> {
  signing ??= getJson<Signing>('/api/chan/signing');
  return signing;
}

export function webSettings(): Promise<WebSettings> {
  settings ??= getJson<WebSettings>('/api/web/settings');
  return settings;
}

export function shortAddress(address: string): string {
  return address.length > 14 ? `${address.slice(0, 8)}…${address.slice(-6)}` : address;
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

let categoryList: Promise<string[]> | null = null;

/** The provider categories the service accepts (the `_filters` of GET /api/mcp/providers). */
export function categories(): Promise<string[]> {
  categoryList ??= getJson<{ _filters?: { category?: { values?: string[] } } }>('/api/mcp/providers?limit=1')
    .then((list) => list._filters?.category?.values ?? [])
    .catch(() => []);
  return categoryList;
}
