import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

const service = process.env.CHAN_SERVICE_URL ?? 'http://127.0.0.1:8080';

// The built files go into the service's jar (ledger-api copies dist/ into its static resources);
// hashed names under /assets/ let the service tell browsers to keep them for a year.
export default defineConfig({
  plugins: [preact()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
  },
  server: {
    // `npm run dev` against a service started by deploy/run.sh
    proxy: {
      // CHAN_SERVICE_URL: another port than deploy/run.sh's default
      '/api': service,
      '/v1': service,
      '/actuator': service,
    },
  },
  test: {
    include: ['src/**/*.test.ts'],
  },
});
