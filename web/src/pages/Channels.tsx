import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText, getJson } from '../api';
import { claimFigures, eventFigures, eventNonce, explorerLink, figuresOf } from '../channel';
import { baseUnits, formatUsdc, permille } from '../money';
import { navigate } from '../router';
import { formatTime, shortAddress, signingInfo, webSettings } from '../shared';
import type { Channel, ChannelEvent, ExplorerActivity, ExplorerSummary } from '../types';
import { connectWallet, useWallet, walletSignedHeaders } from '../wallet';

export function ChannelSearch() {
  const [id, setId] = useState('');
  const valid = /^0x[0-9a-fA-F]{64}$/.test(id.trim());
  return (
    <section>
      <h1>Channel explorer</h1>
      <NetworkSummary />
      <p class="lead">Paste a channel id to see its terms, balance and history. Its parties (and the operator) see the vouchers too.</p>
      <form class="row card" onSubmit={(e) => { e.preventDefault(); if (valid) navigate(`/channels/${id.trim()}`); }}>
        <input name="channelId" size={70} placeholder="0x… (32 bytes)" value={id} onInput={(e) => setId(e.currentTarget.value)}
          aria-invalid={id !== '' && !valid} />
        <button type="submit" disabled={!valid}>Open</button>
        {id !== '' && !valid && <span class="field-error">a channel id is 0x and 64 hex digits</span>}
      </form>
      <p>Your own channels, as consumer or provider: <a href="/my-channels">My channels</a>.</p>
    </section>
  );
}

/** The whole network from the chain (GET /api/explorer/summary): totals, busiest providers, latest activity. */
function NetworkSummary() {
  const [summary, setSummary] = useState<ExplorerSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [explorer, setExplorer] = useState('https://polygonscan.com/tx/{txHash}');
  useEffect(() => {
    getJson<ExplorerSummary>('/api/explorer/summary').then(setSummary).catch((e) => setError(errorText(e)));
    webSettings().then((s) => setExplorer(s.explorerTxUrl)).catch(() => undefined);
  }, []);
  if (error) return <p class="error" role="alert">{error}</p>;
  if (!summary) return <p>Loading the network…</p>;
  const t = summary.totals;
  return (
    <div class="grid">
      <div class="card">
        <h2>Network</h2>
        <dl class="facts" data-testid="explorer-totals">
          <dt>Open channels</dt><dd data-testid="open-channels">{t.openChannels}</dd>
          <dt>Expired, not closed</dt><dd>{t.expiredChannels}</dd>
          <dt>All channels</dt><dd>{t.channels}</dd>
          <dt>USDC locked</dt><dd data-testid="usdc-locked">{formatUsdc(baseUnits(t.locked))} USDC</dd>
          <dt>Claimed</dt><dd data-testid="usdc-claimed">{formatUsdc(baseUnits(t.claimed))} USDC</dd>
          <dt>Fees</dt><dd data-testid="usdc-fees">{formatUsdc(baseUnits(t.feesPaid))} USDC</dd>
        </dl>
        <h2>Busiest providers</h2>
        {summary.busiestProviders.length === 0 ? <p class="muted">No claims yet.</p> : (
          <table data-testid="busiest-providers">
            <thead><tr><th>provider</th><th class="num">claimed (USDC)</th><th class="num">fees</th><th class="num">channels</th></tr></thead>
            <tbody>
              {summary.busiestProviders.map((p) => (
                <tr data-provider={p.provider}>
                  <td><code title={p.provider}>{shortAddress(p.provider)}</code></td>
                  <td class="num">{formatUsdc(baseUnits(p.claimed))}</td>
                  <td class="num">{formatUsdc(baseUnits(p.feesPaid))}</td>
                  <td class="num">{p.channels}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <div class="card">
        <h2>Recent activity</h2>
        {summary.recentActivity.length === 0 ? <p class="muted">No channel yet.</p> : (
          <ol class="timeline" data-testid="explorer-activity">
            {summary.recentActivity.map((a) => <ActivityItem activity={a} explorer={explorer} />)}
          </ol>
        )}
      </div>
    </div>
  );
}

function ActivityItem({ activity: a, explorer }: { activity: ExplorerActivity; explorer: string }) {
  const figures = figuresOf(a.kind === 'opened' ? [['deposit', a.deposit]]
    : a.kind === 'claimed' ? claimFigures(a.payout, a.fee, a.totalClaimed)
    : [['refund', a.refund]]);
  const text = figures.map((f) => `${f.label} ${formatUsdc(f.units)}`);
  return (
    <li data-activity={a.kind} data-channel-id={a.channelId}>
      <strong>{a.kind}</strong>{a.closeKind ? ` (${a.closeKind.replace('_', ' ')})` : ''}{' '}
      <a href={`/channels/${a.channelId}`}><code>{a.channelId.slice(0, 10)}…{a.channelId.slice(-8)}</code></a>{' '}
      <span class="muted">{formatTime(a.at)}</span>
      {text.length > 0 && <div>{text.join(' · ')} USDC</div>}
      <div class="muted">
        {a.provider && <>provider <code title={a.provider}>{shortAddress(a.provider)}</code></>}
        {a.chainRef && <> · tx <a href={explorerLink(explorer, a.chainRef.txHash)} target="_blank" rel="noreferrer"><code>{a.chainRef.txHash.slice(0, 18)}…</code></a></>}
      </div>
    </li>
  );
}

export function ChannelPage({ channelId }: { channelId: string }) {
  const wallet = useWallet();
  const [channel, setChannel] = useState<Channel | null>(null);
  const [events, setEvents] = useState<ChannelEvent[]>([]);
  const [explorer, setExplorer] = useState('https://polygonscan.com/tx/{txHash}');
  const [signedIn, setSignedIn] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // the anonymous load and the signed one after connecting can overlap: only the latest may set state
  const latestLoad = useRef(0);

  const load = async (signed: boolean) => {
    const loadNumber = ++latestLoad.current;
    const current = () => loadNumber === latestLoad.current;
    setError(null);
    try {
      const headers = async (path: string) => {
        if (!signed || !wallet) return {};
        const signing = await signingInfo();
        return walletSignedHeaders(wallet, 'GET', path, Number(signing.eip712Domain.chainId), signing.contracts.channel);
      };
      const channelPath = `/api/channels/${channelId}`;
      const eventsPath = `/api/channels/${channelId}/events`;
      const loaded = await getJson<Channel>(channelPath, await headers(channelPath));
      const history = await getJson<ChannelEvent[] | { events: ChannelEvent[] }>(eventsPath, await headers(eventsPath));
      if (!current()) return;
      setChannel(loaded);
      setEvents(Array.isArray(history) ? history : history.events ?? []);
      setSignedIn(signed);
    } catch (e) {
      if (current()) setError(errorText(e));
    }
  };
  useEffect(() => {
    void load(false);
    webSettings().then((s) => setExplorer(s.explorerTxUrl)).catch(() => undefined);
  }, [channelId]);

  const viewAsParty = async () => {
    try {
      if (!wallet) await connectWallet();
    } catch (e) {
      setError(errorText(e));
    }
  };
  useEffect(() => { if (wallet) void load(true); }, [wallet]);

  if (error && !channel) return <section><h1>Channel</h1><p class="error" role="alert">{error}</p></section>;
  if (!channel) return <section><h1>Channel</h1><p>Loading…</p></section>;
  const deposit = baseUnits(channel.deposit);
  const claimed = baseUnits(channel.claimed);
  // what the gateway charged and what running requests hold: the API's figures, parties only
  const charged = baseUnits(channel.chargedTotal);
  const held = baseUnits(channel.held);
  return (
    <section>
      <h1>Channel <code class="muted">{channelId.slice(0, 10)}…{channelId.slice(-8)}</code></h1>
      {!signedIn && (
        <p class="card">
          You see what the contract shows anyone. The channel's consumer or provider sees its vouchers and charges:{' '}
          <button name="viewAsParty" onClick={viewAsParty}>{wallet ? 'Sign in as a party' : 'Connect wallet'}</button>
        </p>
      )}
      {error && <p class="error" role="alert">{error}</p>}
      <div class="grid">
        <div class="card">
          <h2>Terms</h2>
          <dl class="facts" data-testid="channel-terms">
            <dt>Channel id</dt><dd><code>{channel.channelId}</code></dd>
            <dt>Status</dt><dd>{channel.status}{channel.provisional ? ' (provisional)' : ''}{channel.closeKind ? ` · ${channel.closeKind}` : ''}</dd>
            <dt>Consumer</dt><dd><code>{channel.consumer}</code></dd>
            <dt>Provider</dt><dd><code>{channel.provider}</code></dd>
            <dt>Deposit</dt><dd>{formatUsdc(deposit)} USDC</dd>
            <dt>Expiry</dt><dd>{formatTime(channel.expiry)}</dd>
            <dt>Claimed (gross)</dt><dd>{formatUsdc(claimed)} USDC</dd>
            <dt>Fees paid</dt><dd>{formatUsdc(baseUnits(channel.feesPaid))} USDC</dd>
            <dt title="claimed − fees">Provider received</dt><dd>{formatUsdc(claimed - baseUnits(channel.feesPaid))} USDC</dd>
            {channel.highestVoucher && <>
              <dt>Highest voucher</dt>
              <dd data-testid="highest-voucher">{formatUsdc(baseUnits(channel.highestVoucher.amount))} USDC, nonce {channel.highestVoucher.nonce}</dd>
              <dt>Charged</dt><dd data-testid="charged-total">{formatUsdc(charged)} USDC</dd>
              <dt>Held by running requests</dt><dd data-testid="held">{formatUsdc(held)} USDC</dd>
              <dt>Claimable</dt><dd>{formatUsdc(baseUnits(channel.claimable))} USDC</dd>
              <dt>Refundable</dt><dd>{formatUsdc(baseUnits(channel.refundable))} USDC</dd>
            </>}
          </dl>
        </div>
        <div class="card">
          <h2>Balance</h2>
          <div class="bar" data-testid="balance-bar" title="claimed / charged / deposit">
            <span class="claimed" style={{ width: `${permille(claimed, deposit) / 10}%`, minWidth: claimed > 0n ? '2px' : 0 }} />
            <span class="charged" style={{ width: `${permille(charged > claimed ? charged - claimed : 0n, deposit) / 10}%`, minWidth: charged > claimed ? '2px' : 0 }} />
          </div>
          <div class="legend">
            <span><i style={{ background: '#2a5bd7' }} />claimed {formatUsdc(claimed)}</span>
            <span><i style={{ background: '#8fb0ff' }} />charged {signedIn ? formatUsdc(charged) : '(parties only)'}</span>
            <span><i style={{ background: '#eef1f6' }} />deposit {formatUsdc(deposit)}</span>
          </div>
        </div>
      </div>
      <div class="card">
        <h2>History</h2>
        <ol class="timeline" data-testid="channel-events">
          {events.map((event) => <EventItem event={event} explorer={explorer} />)}
        </ol>
      </div>
    </section>
  );
}

function EventItem({ event, explorer }: { event: ChannelEvent; explorer: string }) {
  const figures = eventFigures(event);
  const nonce = eventNonce(event);
  return (
    <li data-event-type={event.type}>
      <strong>{event.type}</strong> <span class="muted">{formatTime(event.timestamp)}</span>
      {event.type === 'ChannelClosed' && event.payload.kind && <> · {event.payload.kind.toLowerCase().replace('_', ' ')}</>}
      {figures.length > 0 && (
        <div data-testid="event-figures">
          {figures.map((f) => `${f.label} ${formatUsdc(f.units)}`).join(' · ')} USDC{nonce != null ? ` · nonce ${nonce}` : ''}
        </div>
      )}
      {event.chainRef && (
        <div class="muted">
          block {event.chainRef.blockNumber} · tx <a href={explorerLink(explorer, event.chainRef.txHash)} target="_blank" rel="noreferrer"><code>{event.chainRef.txHash.slice(0, 18)}…</code></a>
        </div>
      )}
    </li>
  );
}
