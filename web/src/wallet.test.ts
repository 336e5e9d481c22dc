import { describe, expect, it } from 'vitest';
import { requestMessage, requestNonce } from './wallet';

// The texts of docs/api.md, "Wallet-signed requests", which the service rebuilds byte for byte.
describe('wallet-signed requests', () => {
  const address = '0xAbC0000000000000000000000000000000000001';
  const contract = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

  it('signs the nonce as a last line', () => {
    expect(requestMessage('GET', '/api/channels?limit=5', address, 137, contract, '1795345200', 'a1b2c3d4e5f60718'))
      .toBe(['Chan API request', 'method: GET', 'path: /api/channels?limit=5', `address: ${address}`,
        'chainId: 137', 'contract: 0x5fbdb2315678afecb367f032d93f642f64180aa3', 'timestamp: 1795345200',
        'nonce: a1b2c3d4e5f60718'].join('\n'));
  });

  it('keeps the message without a nonce as it was', () => {
    expect(requestMessage('GET', '/api/channels', address, 137, contract, '1795345200'))
      .toBe(['Chan API request', 'method: GET', 'path: /api/channels', `address: ${address}`,
        'chainId: 137', 'contract: 0x5fbdb2315678afecb367f032d93f642f64180aa3', 'timestamp: 1795345200'].join('\n'));
  });

  it('draws a new nonce the service accepts for every request', () => {
    const nonces = new Set(Array.from({ length: 100 }, () => requestNonce()));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  });
});
