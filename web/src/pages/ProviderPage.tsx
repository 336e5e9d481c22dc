import { useEffect, useState } from 'preact/hooks';
import { errorText, getJson, request } from '../api';
import { formatTime, signingInfo } from '../shared';
import type {
  DirectoryProvider, FeedbackCounts, LatencyHistory, ProviderFeedback, ProviderTelemetry, PublishedPrices, Signing,
  TelemetryCounts,
} from '../types';
import { exampleBody, examplesOf, type Examples } from '../prices';
import { baseUnits, formatUsdc } from '../money';
import { LineChart } from '../components/LineChart';
import { ModelId } from '../components/ModelId';
import { ModelPrice, ProviderLogo, qualityText } from './Marketplace';

export function ProviderPage({ id }: { id: string }) {
  const [provider, setProvider] = useState<DirectoryProvider | null>(null);
  const [signing, setSigning] = useState<Signing | null>(null);
  const [docs, setDocs] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [latency, setLatency] = useState<LatencyHistory | null>(null);
  const [examples, setExamples] = useState<Examples>({});
  const [payModel, setPayModel] = useState<string | null>(null);
  useEffect(() => {
    getJson<LatencyHistory>(`/api/directory/providers/${encodeURIComponent(id)}/latency`).then(setLatency).catch(() => setLatency(null));
    getJson<DirectoryProvider>(`/api/directory/providers/${encodeURIComponent(id)}`).then((p) => {
      setProvider(p);
      // a provider elsewhere may not allow this page's origin (CORS): the link below stays
      request<string>(`${p.apiUrl.replace(/\/$/, '')}/v1/docs`).then((text) => setDocs(String(text))).catch(() => setDocs(null));
      getJson<PublishedPrices>(`${p.apiUrl.replace(/\/$/, '')}/v1/pricing`).then((prices) => setExamples(examplesOf(prices)))
        .catch(() => setExamples({}));
    }).catch((e) => setError(errorText(e)));
    signingInfo().then(setSigning).catch(() => undefined);
  }, [id]);
  if (error) return <section><h1>Provider</h1><p class="error" role="alert">{error}</p></section>;
  if (!provider) return <section><h1>Provider</h1><p>Loading…</p></section>;
  const p = provider;
  const docsUrl = p.docsUrl ?? `${p.apiUrl.replace(/\/$/, '')}/v1/docs`;
  return (
    <section>
      <h1>{p.logoUrl && <ProviderLogo url={p.logoUrl} size={40} />}{p.name}</h1>
      <p class="lead">{p.description}</p>
      <div class="grid">
        <div class="card">
          <dl class="facts">
            <dt>Status</dt><dd><span class={`dot ${p.status.online ? 'online' : 'offline'}`} />{p.status.online ? 'online' : 'offline'}{p.status.latencyMs != null ? ` · ${p.status.latencyMs} ms` : ''}</dd>
            <dt>Inference</dt><dd data-testid="inference-status"><span class={`dot ${p.status.inferenceOnline ? 'online' : 'offline'}`} />{p.status.inferenceOnline ? 'up' : 'down'}{!p.status.inferenceOnline && p.status.inferenceError ? ` · ${p.status.inferenceError}` : ''}</dd>
            <dt>Listing</dt><dd><span class={`badge ${p.approval.state}`}>{p.approval.state}</span></dd>
            <dt>Category</dt><dd>{[p.category, ...(p.additionalCategories ?? [])].join(', ')}</dd>
            <dt>Tier</dt><dd>{p.tier}</dd>
            <dt>Score</dt><dd>{p.score === null ? '—' : p.score.toFixed(2)}</dd>
            <dt>Quality</dt><dd data-testid="quality-score">{qualityText(p.qualityScore)}</dd>
            <dt>Streaming</dt><dd>{p.supportsStreaming == null ? '—' : p.supportsStreaming ? 'yes' : 'no'}</dd>
            {p.website && <><dt>Website</dt><dd><a href={p.website} target="_blank" rel="noreferrer" data-testid="website">{p.website}</a></dd></>}
            <dt>API</dt><dd><code>{p.apiUrl}</code></dd>
            <dt>Wallet</dt><dd><code>{p.providerAddress}</code></dd>
            <dt>Registered</dt><dd>{formatTime(p.registeredAt)}</dd>
          </dl>
        </div>
        <div class="card">
          <h2>Status history</h2>
          <ol class="timeline" data-testid="status-history">
            {p.history.map((h) => <li><strong>{h.event.replace('_', ' ')}</strong> <span class="muted">{formatTime(h.at)}</span>{h.detail && <div class="muted">{h.detail}</div>}</li>)}
          </ol>
        </div>
      </div>
      {p.feedback && <FeedbackCard feedback={p.feedback} />}
      {p.telemetry && <TelemetryCard telemetry={p.telemetry} />}
      <div class="card">
        <h2>Latency, last 24 hours</h2>
        {latency && <LatencyChart history={latency} />}
      </div>
      <h2>Models and prices</h2>
      <table data-testid="pricing">
        <thead><tr><th>Model</th><th>Name</th><th>Price (USDC)</th></tr></thead>
        <tbody>{p.models.map((m) => <tr><td><ModelId id={m.id} /></td><td>{m.name}</td><td><ModelPrice model={m} showId={false} /></td></tr>)}</tbody>
      </table>
      <h2>How to pay this provider</h2>
      {p.models.length > 1 && (
        <label>Model{' '}
          <select name="payModel" value={payModel ?? p.models[0].id} onChange={(e) => setPayModel((e.target as HTMLSelectElement).value)}>
            {p.models.map((m) => <option value={m.id}>{m.id}</option>)}
          </select>
        </label>
      )}
      <pre data-testid="pay-snippet">{paySnippet(p, signing, payModel, examples)}</pre>
      <button class="secondary" onClick={() => navigator.clipboard?.writeText(paySnippet(p, signing, payModel, examples))}>Copy</button>
      <h2>Documentation</h2>
      {docs ? <pre data-testid="provider-docs">{docs}</pre> : <p><a href={docsUrl} target="_blank" rel="noreferrer">{docsUrl}</a></p>}
    </section>
  );
}

function paySnippet(p: DirectoryProvider, signing: Signing | null, payModel: string | null, examples: Examples): string {
  const contract = signing?.contracts.channel ?? '(GET /api/chan/signing)';
  const usdc = signing?.contracts.usdc ?? '(GET /api/chan/signing)';
  const chainId = signing?.eip712Domain.chainId ?? p.chainId;
  const body = exampleBody(p.models.find((m) => m.id === payModel) ?? p.models[0], examples).replaceAll("'", "'\\''");
  return `# 1. Ask without paying: the 402 answer names the terms (X-Payment-Provider, -Contract, -Chain)
curl -i -X POST ${p.apiUrl}/v1/chat/completions -H 'content-type: application/json' \\
  -d '${body}'

# 2. Open a channel on chain ${chainId}: USDC ${usdc}
#    approve(${contract}, deposit), then on the channel contract ${contract}:
#    open(${p.providerAddress}, deposit, durationSeconds)   -> ChannelOpened(channelId, …)

# 3. Pay each request with a voucher: EIP-712 Voucher(channelId, amount, nonce) signed by your wallet,
#    domain ChanChannel v1, chainId ${chainId}, verifyingContract ${contract};
#    amount is the running total (charged so far + this request), nonce goes up by one
curl -X POST ${p.apiUrl}/v1/chat/completions -H 'content-type: application/json' \\
  -H 'X-CHAN-Voucher: {"channelId":"0x…","amount":"50000","nonce":"1","signature":"0x…"}' \\
  -d '${body}'

# 4. Close: POST ${p.apiUrl}/v1/close-channel {"channelId":"0x…"}, then cooperativeClose(channelId, finalAmount, signature)`;
}

/** Success rate as a whole-number percentage, from the integer counts (never from a float). */
export function successPercent(feedback: FeedbackCounts): string {
  if (feedback.reports === 0) return '—';
  return `${Math.round((feedback.successes * 100) / feedback.reports)} %`;
}

/** Verified reports (from wallets that pay the provider; what the quality score reads) and, apart, anonymous ones. */
function FeedbackCard({ feedback }: { feedback: ProviderFeedback }) {
  return (
    <div class="card" data-testid="feedback">
      <h2>Agents' feedback</h2>
      <p class="muted">Over the last {humanWindow(feedback.window)}.</p>
      <h3>Verified</h3>
      <FeedbackPart testId="feedback-verified" counts={feedback}
        source={`from ${feedback.wallets} paying ${feedback.wallets === 1 ? 'wallet' : 'wallets'}`} />
      <h3>Unverified</h3>
      <FeedbackPart testId="feedback-unverified" counts={feedback.unverified} source="anonymous, counted in no score" />
    </div>
  );
}

function FeedbackPart({ counts, source, testId }: { counts: FeedbackCounts; source: string; testId: string }) {
  const reasons = Object.entries(counts.failureReasons);
  if (counts.reports === 0) return <p class="muted" data-testid={testId}>No reports.</p>;
  return (
    <div data-testid={testId}>
      <p><strong>{successPercent(counts)}</strong> successful, from {counts.reports} {counts.reports === 1 ? 'report' : 'reports'} ({source}).</p>
      {reasons.length > 0 && <p class="muted">Failures: {reasons.map(([reason, n]) => `${reason} ${n}`).join(', ')}</p>}
    </div>
  );
}

function humanWindow(iso: string): string {
  const hours = /^PT(\d+)H$/.exec(iso);
  if (hours) {
    const h = Number(hours[1]);
    return h % 24 === 0 && h > 24 ? `${h / 24} days` : `${h} hours`;
  }
  return iso;
}

function LatencyChart({ history }: { history: LatencyHistory }) {
  // uPlot's time scale is in seconds; checks can be less than a second apart
  const xs = history.samples.map((s) => Date.parse(s.at) / 1000);
  const ms = history.samples.map((s) => (s.ok && s.latencyMs != null ? s.latencyMs : null));
  const failed = history.samples.filter((s) => !s.ok).length;
  return (
    <>
      <LineChart testId="latency-chart" data={[xs, ms]} yLabel="ms" series={[{ label: 'latency (ms)', color: '#2a5bd7' }]} />
      <p class="muted">{history.samples.length} health checks{failed > 0 ? `, ${failed} failed (gaps)` : ''}.</p>
    </>
  );
}

/** What agents' clients reported of their paid requests, verified and anonymous apart; volumes from integer base units. */
function TelemetryCard({ telemetry: t }: { telemetry: ProviderTelemetry }) {
  return (
    <div class="card" data-testid="telemetry">
      <h2>Paid requests, as agents saw them</h2>
      <p class="muted">Over the last {humanWindow(t.window)}.</p>
      <h3>Verified</h3>
      <TelemetryPart testId="telemetry-verified" counts={t}
        source={`from ${t.wallets} paying ${t.wallets === 1 ? 'wallet' : 'wallets'}`} />
      <h3>Unverified</h3>
      <TelemetryPart testId="telemetry-unverified" counts={t.unverified} source="anonymous, counted in no score" />
    </div>
  );
}

function TelemetryPart({ counts: t, source, testId }: { counts: TelemetryCounts; source: string; testId: string }) {
  const failures = Object.entries(t.failuresByStatus).map(([status, n]) => `HTTP ${status}: ${n}`);
  if (t.failuresWithoutStatus > 0) failures.push(`no answer: ${t.failuresWithoutStatus}`);
  return (
    <div data-testid={testId}>
      <p class="muted">{t.requests} {t.requests === 1 ? 'request' : 'requests'} ({source})</p>
      <dl class="facts">
        <dt>Latency</dt><dd>{t.latencyMs.p50 == null ? '—' : `p50 ${t.latencyMs.p50} ms · p95 ${t.latencyMs.p95} ms`}</dd>
        <dt>Failed</dt><dd>{t.requests === 0 ? '—' : `${Math.round((t.failures * 100) / t.requests)} %`}
          {failures.length > 0 && <span class="muted"> ({failures.join(', ')})</span>}</dd>
        <dt>Paid volume</dt><dd>{formatUsdc(baseUnits(t.paidVolume))} USDC</dd>
      </dl>
    </div>
  );
}
