export function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        This address is not one of the pages. Start from the <a href="/">marketplace</a>.
      </p>
    </section>
  );
}
