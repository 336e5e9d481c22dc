import { useState } from 'preact/hooks';
import type { Address } from 'viem';
import { errorText, getJson } from '../api';
import { AmountChart } from '../components/AmountChart';
import { ModelId } from '../components/ModelId';
import { baseUnits, formatUsdc, permille } from '../money';
import { formatTime, shortAddress, signingInfo } from '../shared';
import type { ProviderDashboard } from '../types';
import { connectWallet, walletSignedHeaders } from '../wallet';
import { dayPoints, received, riskReason, timeLeft } from './figures';
import { ListenerState } from './ListenerState';

const PATH = '/api/provider/dashboard';

function usdc(units: string | bigint): string {
  return `${formatUsdc(baseUnits(units))} USDC`;
}

async function readAsWallet(wallet: Address): Promise<ProviderDashboard> {
  const signing = await signingInfo();
  const headers = await walletSignedHeaders(wallet, 'GET', PATH, Number(signing.eip712Domain.chainId), signing.contracts.channel);
  return getJson<ProviderDashboard>(PATH, headers);
}

function readAsAdmin(token: string): Promise<ProviderDashboard> {
  return getJson<ProviderDashboard>(PATH, { authorization: `Bearer ${token}` });
}

export function Dashboard() {
  const [dashboard, setDashboard] = useState<ProviderDashboard | null>(null);
  const [reader, setReader] = useState<(() => Promise<ProviderDashboard>) | null>(null);
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function load(read: () => Promise<ProviderDashboard>) {
    setBusy(true);
    setError(null);
    try {
      setDashboard(await read());
      setReader(() => read);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  if (!dashboard) {
    return (
      <section>
        <h1>Provider dashboard</h1>
        <p class="lead">
          This provider's earnings, claims, channels at risk and revenue per model. Connect the provider's own wallet:
          each view is a request it signs, and nothing is stored. The operator may use the admin token instead.
        </p>
        <p>
          <button name="connectWallet" disabled={busy}
            onClick={() => load(async () => readAsWallet(await connectWallet()))}>Connect wallet</button>
        </p>
        <form onSubmit={(e) => { e.preventDefault(); if (token) void load(() => readAsAdmin(token)); }}>
          <label>Admin token <input name="adminToken" type="password" autoComplete="off" value={token}
            onInput={(e) => setToken((e.target as HTMLInputElement).value)} /></label>{' '}
          <button type="submit" disabled={busy || !token}>Open with the token</button>
        </form>
        {error && <p class="error" role="alert" data-testid="dashboard-error">{error}</p>}
      </section>
    );
  }
  return (
    <section>
      <h1>Provider dashboard</h1>
      <p class="muted">
        Provider <code data-testid="provider-address">{dashboard.provider}</code>, as of {formatTime(dashboard.asOf)}{' '}
        {reader && <button name="refresh" disabled={busy} onClick={() => load(reader)}>Refresh</button>}
      </p>
      {error && <p class="error" role="alert">{error}</p>}
      <ListenerState listener={dashboard.listener} />
      <Earnings dashboard={dashboard} />
      <AtRisk dashboard={dashboard} />
      <Models dashboard={dashboard} />
      <Claims dashboard={dashboard} />
    </section>
  );
}

function Earnings({ dashboard }: { dashboard: ProviderDashboard }) {
  const e = dashboard.earnings;
  const points = dayPoints(dashboard.days);
  return (
    <div class="card" data-testid="earnings">
      <h2>Earnings</h2>
      <dl class="facts">
        <dt>Charged</dt><dd data-testid="earnings-charged">{usdc(e.charged)}</dd>
        <dt title="the claims' payouts, before the contract's fee">Claimed (gross)</dt><dd data-testid="earnings-claimed">{usdc(e.claimed)}</dd>
        <dt>Fees</dt><dd data-testid="earnings-fees">{usdc(e.fees)}</dd>
        <dt title="claimed − fees">Received in the wallet</dt>
        <dd data-testid="earnings-received">{usdc(baseUnits(e.claimed) - baseUnits(e.fees))}</dd>
        <dt title="charged − claimed over the channels not closed">Earned, not claimed yet</dt>
        <dd data-testid="earnings-unclaimed">{usdc(e.unclaimedCharged)}</dd>
        <dt title="highest voucher − claimed">Claimable</dt><dd data-testid="earnings-claimable">{usdc(e.claimable)}</dd>
        <dt>Returned to consumers</dt><dd>{usdc(e.returned)}</dd>
        <dt>Channels</dt><dd>{e.channels} ({e.openChannels} open)</dd>
      </dl>
      <h3>Per day (UTC)</h3>
      <AmountChart testId="days-chart" bars at={points.starts} labels={points.labels} atLabel="day"
        series={[{ label: 'charged', color: '#12b76a', units: points.charged }, { label: 'claimed', color: '#2a5bd7', units: points.claimed }]} />
      {dashboard.days.length > 0 && (
        <table data-testid="days">
          <thead><tr><th>Day</th><th class="num">Charged</th><th class="num">Requests</th><th class="num">Claimed</th><th class="num">Fees</th></tr></thead>
          <tbody>
            {[...dashboard.days].reverse().map((d) => (
              <tr data-day={d.day}>
                <td class="nowrap">{d.day}</td>
                <td class="num">{formatUsdc(baseUnits(d.charged))}</td>
                <td class="num">{d.requests}</td>
                <td class="num">{formatUsdc(baseUnits(d.claimed))}</td>
                <td class="num">{formatUsdc(baseUnits(d.fees))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function AtRisk({ dashboard }: { dashboard: ProviderDashboard }) {
  const window = Math.round(dashboard.atRiskWindowSeconds / 60);
  return (
    <div class="card" data-testid="at-risk">
      <h2>Channels at risk</h2>
      <p class="muted">
        Channels with charged, unclaimed money that the consumer may close soon: closing, expired, or expiring within{' '}
        {window} min. Most urgent first; the watchtower claims them before their expiry.
      </p>
      {dashboard.atRisk.length === 0 ? <p class="muted">No channel at risk.</p> : (
        <table>
          <thead><tr><th>Channel</th><th>Consumer</th><th class="num">At stake</th><th class="num">Claimable</th><th>Time left</th><th>Expiry</th></tr></thead>
          <tbody>
            {dashboard.atRisk.map((c) => (
              <tr class="at-risk" data-channel-id={c.channelId}>
                <td><code title={c.channelId}>{c.channelId.slice(0, 12)}…</code></td>
                <td><code title={c.consumer}>{shortAddress(c.consumer)}</code></td>
                <td class="num" data-testid="at-stake">{formatUsdc(baseUnits(c.atStake))}</td>
                <td class="num">{formatUsdc(baseUnits(c.claimable))}</td>
                <td data-testid="time-left">{timeLeft(c.secondsLeft)}<div class="muted">{riskReason(c)}</div></td>
                <td>{formatTime(c.expiry)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function Models({ dashboard }: { dashboard: ProviderDashboard }) {
  // a model earns on channels (charged per request) and by x402 payments (one transfer each)
  const earned = (m: ProviderDashboard['models'][number]) => baseUnits(m.charged) + baseUnits(m.x402Settled);
  const total = dashboard.models.reduce((sum, m) => sum + earned(m), 0n);
  return (
    <div class="card" data-testid="models">
      <h2>Revenue per model</h2>
      {dashboard.models.length === 0 ? <p class="muted">No paid request yet.</p> : (
        <table>
          <thead><tr><th>Model</th><th class="num">Channels</th><th class="num">Requests</th>
            <th class="num">x402</th><th class="num">Payments</th><th>Share</th></tr></thead>
          <tbody>
            {dashboard.models.map((m) => (
              <tr data-model={m.model}>
                <td><ModelId id={m.model} /></td>
                <td class="num" data-testid="model-charged">{formatUsdc(baseUnits(m.charged))}</td>
                <td class="num" data-testid="model-requests">{m.requests}</td>
                <td class="num" data-testid="model-x402">{formatUsdc(baseUnits(m.x402Settled))}</td>
                <td class="num" data-testid="model-x402-payments">{m.x402Payments}</td>
                <td>{(permille(earned(m), total) / 10).toFixed(1)} %</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function Claims({ dashboard }: { dashboard: ProviderDashboard }) {
  return (
    <div class="card" data-testid="claims">
      <h2>Claims</h2>
      <p class="muted">
        Each claim's payout is what it added to the claimed total; the contract keeps its fee from it and the wallet
        receives the rest.
      </p>
      {dashboard.claims.length === 0 ? <p class="muted">No claim on-chain yet.</p> : (
        <table>
          <thead><tr><th>When</th><th>Channel</th><th class="num" title="payout − fee">Wallet received</th><th class="num">Payout (gross)</th><th class="num">Fee</th><th class="num">Total claimed</th><th>Transaction</th></tr></thead>
          <tbody>
            {dashboard.claims.map((c) => (
              <tr data-channel-id={c.channelId} data-total-claimed={c.totalClaimed}>
                <td>{formatTime(c.at)}</td>
                <td><code title={c.channelId}>{c.channelId.slice(0, 12)}…</code></td>
                <td class="num" data-testid="claim-received" title="payout − fee: what the wallet received">{formatUsdc(received(c))}</td>
                <td class="num" data-testid="claim-payout">{formatUsdc(baseUnits(c.payout))}</td>
                <td class="num" data-testid="claim-fee">{formatUsdc(baseUnits(c.fee))}</td>
                <td class="num" data-testid="claim-total">{formatUsdc(baseUnits(c.totalClaimed))}</td>
                <td><code title={c.txHash} data-testid="claim-tx">{c.txHash}</code><div class="muted">block {c.blockNumber}</div></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
