import { useEffect, useState } from 'preact/hooks';
import { ApiError, errorText, getJson, readAfter, sendCommand, type Written } from '../api';
import { categories, signingInfo } from '../shared';
import type { Directory, DirectoryProvider, RegistrationOutcome as Outcome } from '../types';
import { ModelPrice } from './Marketplace';
import { connectWallet, personalSign, registrationMessage, useWallet } from '../wallet';

interface Form {
  name: string; description: string; apiUrl: string; category: string; additionalCategories: string[];
  tier: 'community' | 'bittensor'; hotkey: string; uid: string; contact: string; docsUrl: string;
  contactEmail: string; logoUrl: string; website: string; supportsStreaming: boolean;
}

const EMPTY: Form = { name: '', description: '', apiUrl: '', category: 'llm', additionalCategories: [], tier: 'community', hotkey: '', uid: '', contact: '', docsUrl: '', contactEmail: '', logoUrl: '', website: '', supportsStreaming: false };

/** A fresh registration nonce: 16 random bytes in hex (the service takes each once per address). */
function newNonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function BecomeProvider() {
  const wallet = useWallet();
  const [form, setForm] = useState<Form>(EMPTY);
  const [categoryList, setCategoryList] = useState<string[]>([]);
  const [chainId, setChainId] = useState<number>(137);
  const [signed, setSigned] = useState<{ message: string; nonce: string; issuedAt: string } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Written<Outcome> | null>(null);
  // the directory's entry of the connected wallet: undefined while it is looked up, null when it has none
  const [listing, setListing] = useState<DirectoryProvider | null | undefined>(undefined);

  useEffect(() => {
    categories().then(setCategoryList);
    signingInfo().then((s) => setChainId(Number(s.eip712Domain.chainId))).catch(() => undefined);
  }, []);
  const lookUp = (address: string) => listingOf(address).then(setListing).catch(() => setListing(null));
  useEffect(() => {
    setListing(undefined);
    if (wallet) void lookUp(wallet);
  }, [wallet]);

  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm({ ...form, [key]: value });
    setFieldErrors({ ...fieldErrors, [key]: '' });
    // a changed field makes the last signed message stale: show the preview again
    setSigned(null);
  };
  // what the wallet will sign, shown before it signs; the nonce and time are fixed at submission
  const preview = wallet ? registrationMessage(wallet, form.apiUrl.trim(), chainId, '…', '…') : null;

  const submit = async (event: Event) => {
    event.preventDefault();
    setFailure(null);
    setFieldErrors({});
    if (!wallet) return;
    setBusy(true);
    try {
      const nonce = newNonce();
      const issuedAt = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      const apiUrl = form.apiUrl.trim();
      const message = registrationMessage(wallet, apiUrl, chainId, nonce, issuedAt);
      setSigned({ message, nonce, issuedAt });
      const signature = await personalSign(wallet, message);
      const body: Record<string, unknown> = {
        name: form.name.trim(), description: form.description.trim(), apiUrl, providerAddress: wallet,
        category: form.category, additionalCategories: form.additionalCategories, tier: form.tier,
        nonce, issuedAt, signature,
      };
      if (form.tier === 'bittensor') {
        body.hotkey = form.hotkey.trim();
        body.uid = form.uid.trim() === '' ? null : Number(form.uid);
      }
      if (form.contact.trim()) body.contact = form.contact.trim();
      if (form.docsUrl.trim()) body.docsUrl = form.docsUrl.trim();
      if (form.contactEmail.trim()) body.contactEmail = form.contactEmail.trim();
      if (form.logoUrl.trim()) body.logoUrl = form.logoUrl.trim();
      if (form.website.trim()) body.website = form.website.trim();
      body.supportsStreaming = form.supportsStreaming;
      setOutcome(await sendCommand<Outcome>('POST', '/api/directory/providers', body));
    } catch (e) {
      if (e instanceof ApiError && e.code === 'address_already_registered') {
        await lookUp(wallet);
      } else if (e instanceof ApiError && e.code === 'connection_test_failed') {
        const reason = String(e.problem.reason ?? e.message);
        setFieldErrors({ apiUrl: `GET ${form.apiUrl.trim()}/v1/pricing failed` });
        setFailure(`The connection test failed: ${reason}. Fix the endpoint and submit again (a new signature is asked for).`);
      } else if (e instanceof ApiError && typeof e.problem.field === 'string') {
        const field = e.problem.field === 'providerAddress' || e.problem.field === 'signature' ? 'wallet' : e.problem.field;
        setFieldErrors({ [field]: e.message });
      } else {
        setFailure(errorText(e));
      }
    } finally {
      setBusy(false);
    }
  };

  if (outcome) return <Registered outcome={outcome.body} writtenThrough={outcome.writtenThrough} />;
  if (wallet && listing) return <AlreadyListed wallet={wallet} provider={listing} />;

  const fieldError = (name: string) => fieldErrors[name] ? <span class="field-error" data-field-error={name}>{fieldErrors[name]}</span> : null;
  return (
    <section>
      <h1>Become a provider</h1>
      <p class="lead">
        List your API in the marketplace. Agents pay you per request in USDC through payment channels to your wallet. Your endpoint must answer{' '}
        <code>GET /v1/pricing</code> with at least one priced model and your wallet address as <code>provider</code> (the provider gateway of this
        project does).
      </p>
      <form class="stack" onSubmit={submit}>
        <div class="card">
          <h2>1. Your wallet</h2>
          {wallet
            ? <p>Connected: <code data-testid="connected-address">{wallet}</code>. Agents open channels to this address.
              {listing === undefined && <span class="muted"> Looking it up in the directory…</span>}</p>
            : <button type="button" name="connectWallet" onClick={() => connectWallet().catch((e) => setFailure(errorText(e)))}>Connect wallet</button>}
          {fieldError('wallet')}
        </div>
        <div class="card stack" style={{ maxWidth: 'none' }}>
          <h2>2. Your service</h2>
          <label>Name<input name="name" required value={form.name} aria-invalid={!!fieldErrors.name} onInput={(e) => set('name', e.currentTarget.value)} />{fieldError('name')}</label>
          <label>Description<textarea name="description" rows={3} value={form.description} aria-invalid={!!fieldErrors.description} onInput={(e) => set('description', e.currentTarget.value)} />{fieldError('description')}</label>
          <label>API base URL<input name="apiUrl" required placeholder="https://api.example.com" value={form.apiUrl} aria-invalid={!!fieldErrors.apiUrl} onInput={(e) => set('apiUrl', e.currentTarget.value)} />{fieldError('apiUrl')}</label>
          <label>Category
            <select name="category" value={form.category} aria-invalid={!!fieldErrors.category} onChange={(e) => set('category', e.currentTarget.value)}>
              {(categoryList.length ? categoryList : ['llm']).map((c) => <option value={c}>{c}</option>)}
            </select>{fieldError('category')}
          </label>
          <fieldset>
            <legend class="muted">Additional categories (optional)</legend>
            <div class="row">
              {categoryList.filter((c) => c !== form.category).map((c) => (
                <label class="check"><input type="checkbox" name="additionalCategories" value={c} checked={form.additionalCategories.includes(c)}
                  onChange={(e) => set('additionalCategories', e.currentTarget.checked ? [...form.additionalCategories, c] : form.additionalCategories.filter((x) => x !== c))} />{c}</label>
              ))}
            </div>
            {fieldError('additionalCategories')}
          </fieldset>
          <label>Tier
            <select name="tier" value={form.tier} onChange={(e) => set('tier', e.currentTarget.value as Form['tier'])}>
              <option value="community">community (listed once the operator approves)</option>
              <option value="bittensor">bittensor miner (listed at once)</option>
            </select>{fieldError('tier')}
          </label>
          {form.tier === 'bittensor' && <>
            <label>Hotkey (SS58)<input name="hotkey" value={form.hotkey} aria-invalid={!!fieldErrors.hotkey} onInput={(e) => set('hotkey', e.currentTarget.value)} />{fieldError('hotkey')}</label>
            <label>UID<input name="uid" inputMode="numeric" value={form.uid} aria-invalid={!!fieldErrors.uid} onInput={(e) => set('uid', e.currentTarget.value)} />{fieldError('uid')}</label>
          </>}
          <label>Contact (optional, kept off the event log)<input name="contact" value={form.contact} aria-invalid={!!fieldErrors.contact} onInput={(e) => set('contact', e.currentTarget.value)} />{fieldError('contact')}</label>
          <label>Contact e-mail (optional, kept off the event log, for the operator only)<input name="contactEmail" type="email" value={form.contactEmail} aria-invalid={!!fieldErrors.contactEmail} onInput={(e) => set('contactEmail', e.currentTarget.value)} />{fieldError('contactEmail')}</label>
          <label>Documentation URL (optional)<input name="docsUrl" value={form.docsUrl} aria-invalid={!!fieldErrors.docsUrl} onInput={(e) => set('docsUrl', e.currentTarget.value)} />{fieldError('docsUrl')}</label>
          <label>Logo URL (optional, shown in the marketplace)<input name="logoUrl" value={form.logoUrl} aria-invalid={!!fieldErrors.logoUrl} onInput={(e) => set('logoUrl', e.currentTarget.value)} />{fieldError('logoUrl')}</label>
          <label>Website (optional)<input name="website" value={form.website} aria-invalid={!!fieldErrors.website} onInput={(e) => set('website', e.currentTarget.value)} />{fieldError('website')}</label>
          <label class="checkbox" data-testid="streaming-label"><input name="supportsStreaming" type="checkbox" checked={form.supportsStreaming} onChange={(e) => set('supportsStreaming', e.currentTarget.checked)} />
            <span>Streams answers (<code>stream: true</code>)</span></label>{fieldError('supportsStreaming')}
        </div>
        <div class="card">
          <h2>3. Sign and submit</h2>
          <p class="muted">Your wallet signs this message (<code>personal_sign</code>); it proves the address is yours and costs nothing.</p>
          <pre data-testid="registration-message">{signed?.message ?? preview ?? 'Connect your wallet to see the message.'}</pre>
          {fieldError('nonce')}{fieldError('issuedAt')}
          <button type="submit" name="register" disabled={!wallet || busy}>{busy ? 'Testing your endpoint…' : 'Sign and register'}</button>
          {failure && <p class="error" role="alert" data-testid="registration-failure">{failure}</p>}
        </div>
      </form>
    </section>
  );
}

function Registered({ outcome, writtenThrough }: { outcome: Outcome; writtenThrough: string | null }) {
  const [entry, setEntry] = useState<DirectoryProvider | null>(null);
  useEffect(() => {
    // the registration's token: the first read already includes it; later ones follow the operator's decision
    const load = () => getJson<DirectoryProvider>(`/api/directory/providers/${encodeURIComponent(outcome.id)}`, readAfter(writtenThrough))
      .then(setEntry).catch(() => undefined);
    void load();
    const every = window.setInterval(load, 3000);
    return () => clearInterval(every);
  }, [outcome.id]);
  const state = entry?.approval.state ?? outcome.approval;
  return (
    <section>
      <h1>Registered</h1>
      <div class="card" data-testid="registration-result">
        <p class="ok">The connection test passed: {outcome.models} model{outcome.models === 1 ? '' : 's'} priced, answered in {outcome.latencyMs} ms.</p>
        <dl class="facts">
          <dt>Provider id</dt><dd><code data-testid="provider-id">{outcome.id}</code></dd>
          <dt>Wallet</dt><dd><code>{outcome.providerAddress}</code></dd>
          <dt>State</dt><dd><span class={`badge ${state}`} data-testid="approval-state">{state}</span></dd>
        </dl>
        <p>{state === 'pending' ? 'An operator reviews new providers; this page updates when yours is approved.'
          : state === 'approved' ? 'You are listed in the marketplace.' : `Suspended${entry?.approval.reason ? `: ${entry.approval.reason}` : ''}.`}</p>
        <p><a href={`/providers/${encodeURIComponent(outcome.id)}`}>Your provider page</a></p>
      </div>
    </section>
  );
}

/** The directory's entry of {@code address}, or null: a wallet registers once, as one provider. */
async function listingOf(address: string): Promise<DirectoryProvider | null> {
  const directory = await getJson<Directory>('/api/directory/providers');
  return directory.providers.find((p) => p.providerAddress.toLowerCase() === address.toLowerCase()) ?? null;
}

/** What a wallet that is a provider already sees in place of the form: its listing. */
function AlreadyListed({ wallet, provider: p }: { wallet: string; provider: DirectoryProvider }) {
  const state = p.approval.state;
  return (
    <section>
      <h1>Become a provider</h1>
      <div class="card" data-testid="already-registered">
        <h2>This wallet is already a provider</h2>
        <p>
          <code>{wallet}</code> is registered as <strong data-testid="listed-name">{p.name}</strong>{' '}
          (<code>{p.id}</code>), and a wallet registers once.
        </p>
        <dl class="facts">
          <dt>State</dt><dd><span class={`badge ${state}`} data-testid="listed-state">{state}</span>
            {state === 'pending' && <span class="muted"> an operator reviews new providers</span>}
            {state === 'suspended' && p.approval.reason && <span class="muted"> {p.approval.reason}</span>}</dd>
          <dt>API</dt><dd><code>{p.apiUrl}</code></dd>
          <dt>Category</dt><dd>{[p.category, ...(p.additionalCategories ?? [])].join(', ')}</dd>
          <dt>Models</dt>
          <dd><ul class="models">{p.models.map((m) => <li><ModelPrice model={m} /></li>)}</ul></dd>
        </dl>
        <p><a href={`/providers/${encodeURIComponent(p.id)}`} data-testid="listing-link">Your provider page</a></p>
      </div>
    </section>
  );
}
