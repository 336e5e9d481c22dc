import { defineConfig, mergeConfig } from 'vite';
import pages from './vite.config';

// The provider's dashboard: a build of its own, because a provider serves it and not the
// marketplace's pages. Its files go to dist-provider/ (ledger-api packages them in provider-pages/,
// outside the marketplace's static resources) and are served under /dashboard/. The provider's home
// page (provider-home.html, no script) is what a browser gets at any other address of its server.
export default mergeConfig(pages, defineConfig({
  base: '/dashboard/',
  build: {
    outDir: 'dist-provider',
    rollupOptions: { input: ['dashboard.html', 'provider-home.html'] },
  },
}));
