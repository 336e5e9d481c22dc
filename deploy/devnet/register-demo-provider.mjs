// Registers a provider of the local network in the marketplace, signed by the provider's own
// wallet as a real provider would (EIP-191 over the registration message), then approves it with
// the admin token. Prints the provider's id.
//
//   CHAN_ADMIN_TOKEN=… node deploy/devnet/register-demo-provider.mjs
//
// Settings (environment): CHAN_MARKETPLACE_URL (default http://127.0.0.1:8080), CHAN_PROVIDER_URL
// (the provider's apiUrl, default http://127.0.0.1:8081), CHAN_PROVIDER_KEY (default anvil's
// account 2, the key of deploy/devnet/providers/chat-provider.yml), CHAN_PROVIDER_NAME,
// CHAN_PROVIDER_DESCRIPTION, CHAN_PROVIDER_CATEGORY (default llm).
import { randomBytes } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';

const marketplace = process.env.CHAN_MARKETPLACE_URL ?? 'http://127.0.0.1:8080';
const apiUrl = process.env.CHAN_PROVIDER_URL ?? 'http://127.0.0.1:8081';
const providerKey = process.env.CHAN_PROVIDER_KEY
  ?? '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
const adminToken = process.env.CHAN_ADMIN_TOKEN;

const provider = privateKeyToAccount(providerKey);
const nonce = randomBytes(16).toString('hex');
const issuedAt = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const message = ['Chan provider registration', `address: ${provider.address}`, `apiUrl: ${apiUrl}`,
  'chainId: 137', `nonce: ${nonce}`, `issuedAt: ${issuedAt}`].join('\n');
const signature = await provider.signMessage({ message });

const registration = await fetch(`${marketplace}/api/directory/providers`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    name: process.env.CHAN_PROVIDER_NAME ?? 'Chat demo provider',
    description: process.env.CHAN_PROVIDER_DESCRIPTION ?? 'Chat through an OpenAI-compatible API. For local use.',
    apiUrl, providerAddress: provider.address, category: process.env.CHAN_PROVIDER_CATEGORY ?? 'llm', tier: 'community',
    contact: 'devnet@localhost', docsUrl: `${apiUrl}/v1/docs`, nonce, issuedAt, signature,
  }),
});
const registered = await registration.json();
if (registration.status !== 200 && registration.status !== 201) {
  console.error(`registration answered ${registration.status}: ${JSON.stringify(registered)}`);
  process.exit(1);
}
const id = registered.id ?? registered.provider?.id;
if (adminToken) {
  const approval = await fetch(`${marketplace}/api/admin/providers/${encodeURIComponent(id)}/approve`, {
    method: 'POST', headers: { authorization: `Bearer ${adminToken}` },
  });
  if (approval.status >= 300) {
    console.error(`approval answered ${approval.status}: ${await approval.text()}`);
    process.exit(1);
  }
}
console.log(id);
