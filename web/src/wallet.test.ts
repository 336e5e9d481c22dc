import { describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import vectors from '../../ledger-api/src/test/resources/vectors/wallet-request.json';
import { bodyHash, requestMessage, requestNonce } from './wallet';

// The known answers the service's own test checks too (WalletRequestVectorsTest): the text of
// docs/api.md, "Wallet-signed requests", which the service rebuilds byte for byte.
describe('wallet-signed requests', () => {
  const wallet = privateKeyToAccount(vectors.privateKey as `0x${string}`);

  for (const vector of vectors.cases) {
    it(`signs ${vector.name} as the shared table says`, async () => {
      const text = requestMessage({
        method: vector.method, pathAndQuery: vector.path, audience: vector.audience, body: vector.body,
        address: vector.address, chainId: vector.chainId, contract: vector.contract, timestamp: vector.timestamp,
        nonce: vector.nonce,
      });
      expect(bodyHash(vector.body)).toBe(vector.bodyHash);
      expect(text).toBe(vector.text);
      expect(await wallet.signMessage({ message: text })).toBe(vector.signature);
    });
  }

  it('names the audience and the body right after the path', () => {
    const lines = requestMessage({
      method: 'POST', pathAndQuery: '/v1/close-channel', audience: 'https://market.example', body: '{}',
      address: wallet.address, chainId: 137, contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      timestamp: '1795345200', nonce: 'a1b2c3d4e5f60718',
    }).split('\n');
    expect(lines.slice(0, 5)).toEqual(['Chan API request', 'method: POST', 'path: /v1/close-channel',
      'audience: https://market.example', `bodyHash: ${bodyHash('{}')}`]);
    expect(lines[7]).toBe('contract: 0x5fbdb2315678afecb367f032d93f642f64180aa3');
  });

  it('draws a new nonce the service accepts for every request', () => {
    const nonces = new Set(Array.from({ length: 100 }, () => requestNonce()));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  });
});
