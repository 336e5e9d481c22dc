// The provider's dashboard, a page of its own served by a provider (chan.role=provider) at
// /dashboard: it reads only that provider's API (the signing information and
// /api/provider/dashboard), never the marketplace's.
import { render } from 'preact';
import '../styles.css';
import { Dashboard } from './Dashboard';

render(
  <div>
    <header class="top">
      <a class="brand" href="/dashboard">Chan Ledger · provider dashboard</a>
    </header>
    <main>
      <Dashboard />
    </main>
  </div>,
  document.getElementById('app')!,
);
