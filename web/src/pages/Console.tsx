import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, errorText, getJson, readAfter, sendCommand, sendJson } from '../api';
import { healthFacts } from '../health';
import { formatPol } from '../money';
import { shortAddress } from '../shared';
import { ModelPrice } from './Marketplace';
import type { Directory, DirectoryProvider, OperatorHealth, ReadModelChecksum, ReplayStatus } from '../types';

// The admin token lives in this tab's sessionStorage only: never in the address, never in a
// cookie, gone when the tab closes.
const TOKEN_KEY = 'chan.adminToken';

export function Console() {
  const [token, setToken] = useState<string>(() => sessionStorage.getItem(TOKEN_KEY) ?? '');
  const [draft, setDraft] = useState('');
  if (!token) {
    return (
      <section>
        <h1>Operator console</h1>
        <form class="stack card" onSubmit={(e) => {
          e.preventDefault();
          sessionStorage.setItem(TOKEN_KEY, draft.trim());
          setToken(draft.trim());
        }}>
          <label>
            Admin token (<code>CHAN_ADMIN_TOKEN</code>; kept in this tab only)
            <input name="adminToken" type="password" autocomplete="off" value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
          </label>
          <div><button type="submit" disabled={!draft.trim()}>Open the console</button></div>
        </form>
      </section>
    );
  }
  const signOut = () => {
    sessionStorage.removeItem(TOKEN_KEY);
    setToken('');
  };
  const auth = { Authorization: `Bearer ${token}` };
  return (
    <section>
      <div class="row"><h1>Operator console</h1><button class="secondary" onClick={signOut}>Forget the token</button></div>
      <Providers auth={auth} onUnauthorized={signOut} />
      <div class="grid">
        <Replay auth={auth} />
        <Health auth={auth} />
      </div>
      <PublishSkill auth={auth} />
    </section>
  );
}

type Auth = Record<string, string>;

function Providers({ auth, onUnauthorized }: { auth: Auth; onUnauthorized: () => void }) {
  const [providers, setProviders] = useState<DirectoryProvider[] | null>(null);
  const [showAll, setShowAll] = useState(false);
  // providers acted on stay in the list until the page is left, so an approval can be followed by a score
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [message, setMessage] = useState<string | null>(null);
  // with the token of a command just sent, the service answers once the directory includes it
  const load = (writtenThrough?: string | null) => getJson<Directory>('/api/directory/providers', readAfter(writtenThrough))
    .then((d) => setProviders(d.providers))
    .catch((e) => setMessage(errorText(e)));
  useEffect(() => void load(), []);

  const act = async (provider: DirectoryProvider, action: 'approve' | 'suspend' | 'score', value?: string) => {
    setTouched(new Set(touched).add(provider.id));
    try {
      const { writtenThrough } = action === 'score'
        ? await sendCommand('PUT', `/api/admin/providers/${encodeURIComponent(provider.id)}/score`, { score: Number(value) }, auth)
        : await sendCommand('POST', `/api/admin/providers/${encodeURIComponent(provider.id)}/${action}`,
          value ? { reason: value } : {}, auth);
      setMessage(`${provider.name}: ${action === 'score' ? `score set to ${value}` : `${action}d`}`);
      await load(writtenThrough);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) onUnauthorized();
      setMessage(`${provider.name}: ${errorText(e)}`);
    }
  };

  const shown = (providers ?? []).filter((p) => showAll || p.approval.state === 'pending' || touched.has(p.id));
  return (
    <div class="card">
      <div class="row">
        <h2>Providers</h2>
        <label class="check"><input type="checkbox" checked={showAll} onChange={(e) => setShowAll(e.currentTarget.checked)} /> show approved and suspended too</label>
      </div>
      {message && <p role="status" data-testid="provider-action">{message}</p>}
      {providers && shown.length === 0 && <p class="muted">No provider waits for approval.</p>}
      {shown.length > 0 && (
        <table>
          <thead><tr><th>Provider</th><th>Models and prices (USDC)</th><th>State</th><th>Connection</th><th>Score</th><th>Actions</th></tr></thead>
          <tbody>{shown.map((p) => <ProviderActions key={p.id} provider={p} act={act} />)}</tbody>
        </table>
      )}
    </div>
  );
}

function ProviderActions({ provider: p, act }: {
  provider: DirectoryProvider; act: (p: DirectoryProvider, action: 'approve' | 'suspend' | 'score', value?: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [score, setScore] = useState(p.score === null ? '' : String(p.score));
  return (
    <tr data-provider-id={p.id}>
      <td><a href={`/providers/${encodeURIComponent(p.id)}`}>{p.name}</a><br /><span class="muted">{p.category} · {p.tier} · {shortAddress(p.providerAddress)}</span><br /><span class="muted">{p.apiUrl}</span></td>
      <td data-testid="provider-models">
        {p.models.length === 0 ? <span class="muted">no model priced</span>
          : <ul class="models">{p.models.map((m) => <li><ModelPrice model={m} /></li>)}</ul>}
      </td>
      <td>
        <span class={`badge ${p.approval.state}`}>{p.approval.state}</span>{p.approval.reason && <div class="muted">{p.approval.reason}</div>}
        {/* a name anyone can register: the provider that had it first, for the operator to compare */}
        {p.duplicateNameOf && <div class="muted" data-testid="duplicate-name">same name as <a href={`/providers/${encodeURIComponent(p.duplicateNameOf)}`}>{p.duplicateNameOf}</a></div>}
      </td>
      <td><span class={`dot ${p.status.online ? 'online' : 'offline'}`} />{p.status.online ? 'online' : 'offline'}{p.status.lastError && <div class="muted">{p.status.lastError}</div>}</td>
      <td>
        <div class="row">
          <input name="score" size={5} value={score} onInput={(e) => setScore(e.currentTarget.value)} aria-label="score from 0 to 1" />
          <button class="secondary" onClick={() => act(p, 'score', score)}>Set</button>
        </div>
      </td>
      <td>
        <div class="row">
          {p.approval.state !== 'approved' && <button name="approve" onClick={() => act(p, 'approve')}>Approve</button>}
          {p.approval.state !== 'suspended' && (
            <>
              <input name="reason" placeholder="reason to suspend" value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
              <button name="suspend" class="secondary" onClick={() => act(p, 'suspend', reason)}>Suspend</button>
            </>
          )}
        </div>
      </td>
    </tr>
  );
}

function Replay({ auth }: { auth: Auth }) {
  const [status, setStatus] = useState<ReplayStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<number | null>(null);
  // after "start", the status of the replay before it (or a poll still under way) must not show
  const replaced = useRef<string | null>(null);
  const poll = async () => {
    try {
      const next = await getJson<ReplayStatus>('/api/admin/replay', auth);
      const stale = replaced.current !== null && next.startedAt === replaced.current;
      if (!stale) setStatus(next);
      const running = stale || !['IDLE', 'COMPLETED', 'FAILED'].includes(next.state);
      timer.current = running ? window.setTimeout(poll, 300) : null;
    } catch (e) {
      setError(errorText(e));
    }
  };
  useEffect(() => {
    void poll();
    return () => { if (timer.current) clearTimeout(timer.current); };
  }, []);
  const start = async () => {
    setError(null);
    replaced.current = status?.startedAt ?? null;
    setStatus(null);
    try {
      await sendJson('POST', '/api/admin/replay', undefined, auth);
    } catch (e) {
      replaced.current = null; // no new replay: the current status is the one to show
      setError(errorText(e));
    }
    if (timer.current) clearTimeout(timer.current);
    void poll();
  };
  const processed = status?.processed ?? 0;
  const head = status?.head ?? 0;
  const percent = head > 0 ? Math.min(100, Math.floor((processed * 100) / head)) : status?.state === 'COMPLETED' ? 100 : 0;
  return (
    <div class="card" data-testid="replay">
      <h2>Read-model replay</h2>
      <p class="muted">Rebuilds the channel balances and provider accounts from the event store and proves the rebuild with checksums.</p>
      <button name="startReplay" onClick={start}>Start a replay</button>
      {error && <p class="error" role="alert">{error}</p>}
      {status && (
        <>
          <p>State: <strong data-testid="replay-state">{status.state}</strong>{status.eventsPerSecond ? ` · ${Math.round(status.eventsPerSecond)} events/s` : ''}</p>
          <div class="progress" role="progressbar" aria-valuenow={percent} aria-valuemin={0} aria-valuemax={100}><span style={{ width: `${percent}%` }} /></div>
          <p class="muted">{processed} of {head} events</p>
          {status.before && <p>Checksum before: <code data-testid="checksum-before">{checksumText(status.before.checksum)}</code></p>}
          {status.after && <p>Checksum after: <code data-testid="checksum-after">{checksumText(status.after.checksum)}</code></p>}
          {status.matches !== undefined && status.matches !== null && (
            <p data-testid="replay-verdict" class={status.matches ? 'ok' : 'error'}>
              {status.matches ? 'Checksums match: the rebuilt read models equal the ones replaced.'
                : status.comparable === false ? 'Not comparable: channel events arrived during the replay.' : 'Checksums differ.'}
            </p>
          )}
          {status.error && <p class="error">{status.error}</p>}
        </>
      )}
    </div>
  );
}

/** "sha256 (table rows, …)" of a read-model checksum. */
function checksumText(checksum: ReadModelChecksum): string {
  const tables = checksum.tables.map((t) => `${t.table}: ${t.rows} rows`).join(', ');
  return `${checksum.sha256}${tables ? ` (${tables})` : ''}`;
}

/** The details each part states in a line of its own, above the others. */
const HEADLINES = new Set(['lagBlocks', 'balanceWei']);

function Health({ auth }: { auth: Auth }) {
  const [health, setHealth] = useState<OperatorHealth | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const load = () => getJson<OperatorHealth>('/api/admin/health', auth)
      .then((h) => { setHealth(h); setError(null); }).catch((e) => setError(errorText(e)));
    void load();
    const every = window.setInterval(load, 5000);
    return () => clearInterval(every);
  }, []);
  const parts: [string, string][] = [['chainListener', 'Chain listener'], ['gasStation', 'Gas station']];
  return (
    <div class="card" data-testid="health">
      <h2>Health</h2>
      {error && <p class="error">{error}</p>}
      {health && <p>Service: <strong>{health.status}</strong></p>}
      {health && parts.map(([name, label]) => {
        const component = health.components[name];
        const details = component?.details ?? {};
        return (
          <div data-testid={`health-${name}`}>
            <h3>{label}: <span class={component?.status === 'UP' ? 'ok' : 'error'}>{component?.status ?? 'not running here'}</span></h3>
            {name === 'chainListener' && details.lagBlocks !== undefined && <p>Lag: <strong data-testid="listener-lag">{String(details.lagBlocks)}</strong> blocks behind the final block</p>}
            {name === 'gasStation' && typeof details.balanceWei === 'string' && /^\d+$/.test(details.balanceWei)
              && <p>Faucet balance: <strong data-testid="faucet-balance">{formatPol(BigInt(details.balanceWei))} POL</strong></p>}
            {Object.keys(details).length > 0 && (
              <dl class="facts" data-testid={`health-${name}-details`}>
                {healthFacts(details).filter((f) => !HEADLINES.has(f.key))
                  .map((f) => <><dt>{f.label}</dt><dd data-detail={f.key}>{f.value}</dd></>)}
              </dl>
            )}
          </div>
        );
      })}
    </div>
  );
}

function PublishSkill({ auth }: { auth: Auth }) {
  const [slug, setSlug] = useState('');
  const [text, setText] = useState('{\n  "name": "",\n  "description": "",\n  "providers": [],\n  "steps": [],\n  "output": ""\n}');
  const [problems, setProblems] = useState<string[]>([]);
  const [result, setResult] = useState<string | null>(null);
  let parseError: string | null = null;
  try {
    JSON.parse(text);
  } catch (e) {
    parseError = (e as Error).message;
  }
  const publish = async (e: Event) => {
    e.preventDefault();
    setProblems([]);
    setResult(null);
    try {
      const skill = await sendJson<{ slug: string; version: number }>('PUT', `/api/skills/${encodeURIComponent(slug)}`, JSON.parse(text), auth);
      setResult(`Published ${skill.slug} version ${skill.version}.`);
    } catch (error) {
      if (error instanceof ApiError && Array.isArray(error.problem.problems)) {
        setProblems((error.problem.problems as unknown[]).map((p) => (typeof p === 'string' ? p : JSON.stringify(p))));
      } else {
        setResult(errorText(error));
      }
    }
  };
  return (
    <form class="card stack" onSubmit={publish} data-testid="publish-skill" style={{ maxWidth: 'none' }}>
      <h2>Publish a skill</h2>
      <label>Slug<input name="slug" value={slug} onInput={(e) => setSlug(e.currentTarget.value)} placeholder="research-and-summarize" /></label>
      <label>
        Skill document (JSON)
        <textarea name="skill" class="code" rows={14} value={text} aria-invalid={parseError !== null || problems.length > 0}
          onInput={(e) => setText(e.currentTarget.value)} />
        {parseError && <span class="field-error">Not JSON: {parseError}</span>}
      </label>
      {problems.length > 0 && (
        <div class="error" role="alert" data-testid="skill-problems">
          <strong>invalid_skill</strong>
          <ul>{problems.map((p) => <li>{p}</li>)}</ul>
        </div>
      )}
      {result && <p role="status">{result}</p>}
      <div><button type="submit" disabled={!slug || parseError !== null}>Publish</button></div>
    </form>
  );
}

