import { useEffect, useState } from 'preact/hooks';
import { errorText, getJson } from '../api';
import { AmountChart } from '../components/AmountChart';
import { baseUnits, formatUsdc } from '../money';
import { formatTime, signingInfo } from '../shared';
import type { Channel, Claimable } from '../types';
import { connectWallet, useWallet, walletSignedHeaders } from '../wallet';
import type { Address } from 'viem';

export function MyChannels() {
  const wallet = useWallet();
  const [error, setError] = useState<string | null>(null);
  if (!wallet) {
    return (
      <section>
        <h1>My channels</h1>
        <p class="lead">Connect the wallet you pay or get paid with. Each view is a request your wallet signs; nothing is stored.</p>
        <button name="connectWallet" onClick={() => connectWallet().catch((e) => setError(errorText(e)))}>Connect wallet</button>
        {error && <p class="error" role="alert">{error}</p>}
      </section>
    );
  }
  return (
    <section>
      <h1>My channels</h1>
      <p class="muted">Wallet <code data-testid="wallet-address">{wallet}</code></p>
      <AsProvider wallet={wallet} />
      <AsConsumer wallet={wallet} />
    </section>
  );
}

async function signedGet<T>(wallet: Address, path: string): Promise<T> {
  const signing = await signingInfo();
  const headers = await walletSignedHeaders(wallet, 'GET', path, Number(signing.eip712Domain.chainId), signing.contracts.channel);
  return getJson<T>(path, headers);
}

function AsConsumer({ wallet }: { wallet: Address }) {
  const [channels, setChannels] = useState<Channel[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    signedGet<{ channels: Channel[] }>(wallet, `/api/channels?consumer=${wallet}&limit=200`)
      .then((page) => setChannels(page.channels)).catch((e) => setError(errorText(e)));
  }, [wallet]);
  return (
    <div class="card" data-testid="as-consumer">
      <h2>As a consumer</h2>
      {error && <p class="error">{error}</p>}
      {channels && channels.length === 0 && <p class="muted">No channel opened from this wallet.</p>}
      {channels && channels.length > 0 && (
        <table>
          <thead><tr><th>Channel</th><th>Provider</th><th class="num">Deposit</th><th class="num" title="deposit minus the highest voucher you signed (or what was claimed), nothing once closed">Not yet vouched</th><th>Expiry</th><th>Status</th></tr></thead>
          <tbody>
            {channels.map((c) => (
              <tr>
                <td><a href={`/channels/${c.channelId}`}><code>{c.channelId.slice(0, 12)}…</code></a></td>
                <td><code>{c.provider.slice(0, 10)}…</code></td>
                <td class="num">{formatUsdc(baseUnits(c.deposit))}</td>
                <td class="num">{c.refundable != null ? formatUsdc(baseUnits(c.refundable)) : '—'}</td>
                <td>{formatTime(c.expiry)}</td>
                <td>{c.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <details>
        <summary>How to close a channel</summary>
        <p>
          Ask the provider for a close authorization (<code>POST {'{apiUrl}'}/v1/close-channel</code> with <code>{'{"channelId"}'}</code>,
          signed by your wallet so the channel pays for nothing afterwards), then call the contract's{' '}
          <code>cooperativeClose(channelId, finalAmount, providerSignature)</code>: the provider is paid <code>finalAmount</code> and the
          rest of the deposit comes back to you. After the expiry, <code>close(channelId)</code> refunds what was not claimed.
        </p>
      </details>
    </div>
  );
}

function AsProvider({ wallet }: { wallet: Address }) {
  const [claimable, setClaimable] = useState<Claimable | null>(null);
  const [channels, setChannels] = useState<Channel[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    (async () => {
      setClaimable(await signedGet<Claimable>(wallet, `/api/providers/${wallet}/claimable?limit=500`));
      setChannels((await signedGet<{ channels: Channel[] }>(wallet, `/api/channels?provider=${wallet}&limit=200`)).channels);
    })().catch((e) => setError(errorText(e)));
  }, [wallet]);
  if (error) return <div class="card"><h2>As a provider</h2><p class="error">{error}</p></div>;
  if (!claimable) return <div class="card"><h2>As a provider</h2><p>Loading…</p></div>;
  const totals = claimable.totals;
  return (
    <div class="card" data-testid="as-provider">
      <h2>As a provider</h2>
      <dl class="facts">
        <dt>Channels</dt><dd>{totals.channels} ({totals.openChannels} open, {totals.expiredChannels} expired)</dd>
        <dt>Claimable</dt><dd data-testid="total-claimable">{formatUsdc(baseUnits(totals.claimable))} USDC</dd>
        <dt>Claimed</dt><dd>{formatUsdc(baseUnits(totals.claimed))} USDC</dd>
        <dt>At risk</dt><dd class={totals.atRiskChannels > 0 ? 'error' : ''}>{formatUsdc(baseUnits(totals.atRisk))} USDC in {totals.atRiskChannels} channels (expiring within {Math.round(claimable.atRiskWindowSeconds / 60)} min)</dd>
      </dl>
      <h3>Earnings</h3>
      <EarningsChart channels={channels} />
      <h3>Claims to make</h3>
      {claimable.claims.length === 0 ? <p class="muted">Nothing to claim.</p> : (
        <table data-testid="claims">
          <thead><tr><th>Channel</th><th class="num">Claimable</th><th>Expiry</th><th><code>claim(channelId, amount, nonce, signature)</code></th></tr></thead>
          <tbody>
            {claimable.claims.map((c) => (
              <tr class={c.atRisk ? 'at-risk' : ''} data-channel-id={c.channelId}>
                <td><a href={`/channels/${c.channelId}`}><code>{c.channelId.slice(0, 12)}…</code></a>{c.atRisk && <div class="error">at risk</div>}</td>
                <td class="num">{formatUsdc(baseUnits(c.claimable))}<div class="muted">net {formatUsdc(baseUnits(c.netClaimable))}</div></td>
                <td>{formatTime(c.expiry)}</td>
                <td><pre class="claim-args">{`claim(\n  ${c.channelId},\n  ${c.amount},\n  ${c.nonce},\n  ${c.signature}\n)`}</pre></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** Claimed and claimable, summed over the provider's channels in the order of their last activity. */
function EarningsChart({ channels }: { channels: Channel[] }) {
  const sorted = channels.filter((c) => c.lastActivity).sort((a, b) => Date.parse(a.lastActivity!) - Date.parse(b.lastActivity!));
  const at: number[] = [];
  const labels: string[] = [];
  const claimed: bigint[] = [];
  const claimable: bigint[] = [];
  let sumClaimed = 0n;
  let sumClaimable = 0n;
  for (const c of sorted) {
    sumClaimed += baseUnits(c.claimed);
    sumClaimable += baseUnits(c.claimable);
    at.push(Math.floor(Date.parse(c.lastActivity!) / 1000));
    labels.push(formatTime(c.lastActivity));
    claimed.push(sumClaimed);
    claimable.push(sumClaimable);
  }
  return <AmountChart testId="earnings-chart" at={at} labels={labels} atLabel="last activity"
    series={[{ label: 'claimed', color: '#2a5bd7', units: claimed }, { label: 'claimable', color: '#12b76a', units: claimable }]} />;
}
