import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText, getJson } from '../api';
import { chargedTotal, explorerLink } from '../channel';
import { baseUnits, formatUsdc, permille } from '../money';
import { navigate } from '../router';
import { formatTime, signingInfo, webSettings } from '../shared';
import type { Channel, ChannelEvent } from '../types';
import { connectWallet, useWallet, walletSignedHeaders } from '../wallet';

export function ChannelSearch() {
  const [id, setId] = useState('');
  const valid = /^0x[0-9a-fA-F]{64}$/.test(id.trim());
  return (
    <section>
      <h1>Channel explorer</h1>
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
  const charged = chargedTotal(events);
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
            <dt>Claimed</dt><dd>{formatUsdc(claimed)} USDC</dd>
            <dt>Fees paid</dt><dd>{formatUsdc(baseUnits(channel.feesPaid))} USDC</dd>
            {channel.highestVoucher && <>
              <dt>Highest voucher</dt>
              <dd data-testid="highest-voucher">{formatUsdc(baseUnits(channel.highestVoucher.amount))} USDC, nonce {channel.highestVoucher.nonce}</dd>
              <dt>Charged</dt><dd data-testid="charged-total">{formatUsdc(charged)} USDC</dd>
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
  const payload = (event.payload ?? {}) as Record<string, unknown>;
  const amountKeys = ['deposit', 'amount', 'cost', 'chargedTotal', 'claimedTotal', 'finalAmount', 'refund', 'fee'];
  const figures = amountKeys.filter((k) => typeof payload[k] === 'string' && /^\d+$/.test(payload[k] as string))
    .map((k) => `${k} ${formatUsdc(BigInt(payload[k] as string))}`);
  return (
    <li data-event-type={event.type}>
      <strong>{event.type}</strong> <span class="muted">{formatTime(event.timestamp)}</span>
      {figures.length > 0 && <div>{figures.join(' · ')} USDC{payload.nonce != null ? ` · nonce ${payload.nonce}` : ''}</div>}
      {event.chainRef && (
        <div class="muted">
          block {event.chainRef.blockNumber} · tx <a href={explorerLink(explorer, event.chainRef.txHash)} target="_blank" rel="noreferrer"><code>{event.chainRef.txHash.slice(0, 18)}…</code></a>
        </div>
      )}
    </li>
  );
}
