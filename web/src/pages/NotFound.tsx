// What a browser sees at an address that is no page: the service answers it this application with
// 404 (api.http.BrowserNotFound), API clients its JSON.

export function NotFound() {
  return (
    <section data-testid="not-found">
      <h1>Page not found</h1>
      <p>
        This address is not one of the pages. Start from the <a href="/">marketplace</a>.
      </p>
    </section>
  );
}

/** /dashboard on the marketplace: each provider's dashboard is on that provider's own server. */
export function DashboardElsewhere() {
  return (
    <section data-testid="dashboard-elsewhere">
      <h1>Provider dashboard</h1>
      <p class="lead">
        A provider's dashboard is not on the marketplace: each provider's own server shows it, at <code>/dashboard</code> of
        the address it sells its API from (<code>https://api.provider.example/dashboard</code>), to the provider's wallet.
      </p>
      <p>
        A provider's address is on its page in the <a href="/">marketplace</a> (API). Not a provider yet?{' '}
        <a href="/become-a-provider">Become a provider</a>.
      </p>
    </section>
  );
}
