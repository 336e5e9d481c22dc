import { useEffect, useMemo, useState } from 'preact/hooks';
import { errorText, getJson } from '../api';
import { applyFilters, filtersFromSearch, filtersToSearch, parseMinScore, type MarketFilters } from '../filters';
import { priceText } from '../prices';
import { navigate } from '../router';
import { categories } from '../shared';
import type { Directory, DirectoryProvider, Model } from '../types';
import { ModelId } from '../components/ModelId';

export function Marketplace({ search }: { search: string }) {
  const [directory, setDirectory] = useState<DirectoryProvider[] | null>(null);
  const [categoryList, setCategories] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const filters = filtersFromSearch(search);

  useEffect(() => {
    getJson<Directory>('/api/directory/providers')
      .then((d) => setDirectory(d.providers))
      .catch((e) => setError(errorText(e)));
    categories().then(setCategories);
  }, []);

  const shown = useMemo(() => (directory ? applyFilters(directory, filters) : []), [directory, search]);
  const knownCategories = useMemo(() => {
    const seen = new Set(categoryList);
    (directory ?? []).forEach((p) => seen.add(p.category));
    return [...seen].filter(Boolean).sort();
  }, [categoryList, directory]);

  // every change replaces the history entry: the address is the shareable view, the back button
  // still leaves the marketplace
  const update = (change: Partial<MarketFilters>) => navigate(`/${filtersToSearch({ ...filters, ...change })}`, true);
  const scoreInvalid = filters.minScore !== '' && parseMinScore(filters.minScore) === null;

  return (
    <section>
      <h1>Marketplace</h1>
      <p class="lead">Paid AI and data services an agent can pay per request over a USDC payment channel on Polygon.</p>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filters">
        <label>
          Category
          <select name="category" value={filters.category} onChange={(e) => update({ category: e.currentTarget.value })}>
            <option value="">any</option>
            {knownCategories.map((c) => <option value={c}>{c}</option>)}
          </select>
        </label>
        <label>
          Model
          <input name="model" type="search" placeholder="part of a model name" value={filters.model}
            onInput={(e) => update({ model: e.currentTarget.value })} />
        </label>
        <label>
          Tier
          <select name="tier" value={filters.tier} onChange={(e) => update({ tier: e.currentTarget.value })}>
            <option value="">any</option>
            <option value="community">community</option>
            <option value="bittensor">bittensor</option>
          </select>
        </label>
        <label>
          Minimum score
          <input name="minScore" inputMode="decimal" placeholder="0 to 1" value={filters.minScore}
            aria-invalid={scoreInvalid} onInput={(e) => update({ minScore: e.currentTarget.value })} />
          {scoreInvalid && <span class="field-error">a number from 0 to 1</span>}
        </label>
        <label class="check">
          <input name="includeOffline" type="checkbox" checked={filters.includeOffline}
            onChange={(e) => update({ includeOffline: e.currentTarget.checked })} />
          include offline
        </label>
      </form>
      {error && <p class="error" role="alert">Could not load the providers: {error}</p>}
      {!directory && !error && <p>Loading providers…</p>}
      {directory && (
        <>
          <p class="count" data-testid="provider-count">{shown.length} of {directory.filter((p) => p.approval.state === 'approved').length} listed providers</p>
          <table class="providers">
            <thead>
              <tr><th>Provider</th><th>Category</th><th>Tier</th><th>Score</th><th>Quality</th><th>Status</th><th>Models and prices (USDC)</th></tr>
            </thead>
            <tbody>
              {shown.map((p) => <ProviderRow key={p.id} provider={p} />)}
            </tbody>
          </table>
          {shown.length === 0 && <p class="muted" data-testid="no-match">No provider matches these filters.{filters.includeOffline ? '' : ' Offline providers are left out: tick "include offline" to see them.'}</p>}
        </>
      )}
    </section>
  );
}

function ProviderRow({ provider: p }: { provider: DirectoryProvider }) {
  return (
    <tr data-provider-id={p.id}>
      <td>
        {p.logoUrl && <ProviderLogo url={p.logoUrl} />}
        <a href={`/providers/${encodeURIComponent(p.id)}`} class="provider-name">{p.name}</a>
      </td>
      <td data-label="Category">{p.category}</td>
      <td data-label="Tier">{p.tier}</td>
      <td data-label="Score">{p.score === null ? '—' : p.score.toFixed(2)}</td>
      <td data-label="Quality" data-testid="quality-score">{qualityText(p.qualityScore)}</td>
      <td data-label="Status">
        <span class={`dot ${p.status.online ? 'online' : 'offline'}`} title={p.status.online ? 'online' : 'offline'} />
        {p.status.online ? 'online' : 'offline'}
        {p.status.latencyMs != null && <span class="muted"> · {p.status.latencyMs} ms</span>}
      </td>
      <td data-label="Models and prices (USDC)"><ul class="models">{p.models.map((m) => <li><ModelPrice model={m} /></li>)}</ul></td>
    </tr>
  );
}

/** A provider's logo from its own server; hidden when it does not load, so a broken image never shows. */
export function ProviderLogo({ url, size = 24 }: { url: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return <img class="provider-logo" src={url} alt="" width={size} height={size} loading="lazy"
    referrerpolicy="no-referrer" onError={() => setFailed(true)} />;
}

/** The quality score with two decimals, or a dash while it is unknown. */
export function qualityText(score: number | null | undefined): string {
  return score === null || score === undefined ? '—' : score.toFixed(2);
}

export function ModelPrice({ model, showId = true }: { model: Model; showId?: boolean }) {
  return (
    <span>
      {showId && <><ModelId id={model.id} />{' '}</>}
      <span class="price">{priceText(model.price)}</span>
    </span>
  );
}
