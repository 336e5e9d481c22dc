// The browser wallet (EIP-1193 `window.ethereum`: MetaMask, Rabby, …) through viem: connect, and
// personal_sign (EIP-191) of the registration message and of wallet-signed API requests.
import { createWalletClient, custom, getAddress, type Address, type EIP1193Provider } from 'viem';
import { useEffect, useState } from 'preact/hooks';

declare global {
  interface Window {
    ethereum?: EIP1193Provider;
  }
}

let connected: Address | null = null;
const listeners = new Set<(address: Address | null) => void>();

function walletClient() {
  if (!window.ethereum) throw new Error('No browser wallet found: install MetaMask, Rabby or another EIP-1193 wallet.');
  return createWalletClient({ transport: custom(window.ethereum) });
}

export async function connectWallet(): Promise<Address> {
  const [address] = await walletClient().requestAddresses();
  if (!address) throw new Error('The wallet shared no account.');
  connected = getAddress(address);
  listeners.forEach((listener) => listener(connected));
  return connected;
}

/** The connected address, shared by every page until the page is reloaded. */
export function useWallet(): Address | null {
  const [address, setAddress] = useState<Address | null>(connected);
  useEffect(() => {
    listeners.add(setAddress);
    return () => void listeners.delete(setAddress);
  }, []);
  return address;
}

export async function personalSign(address: Address, message: string): Promise<`0x${string}`> {
  return walletClient().signMessage({ account: address, message });
}

/**
 * The text a wallet signs for a request (docs/api.md, "Wallet-signed requests"); the `nonce` line
 * only when the request sends X-CHAN-Auth-Nonce.
 */
export function requestMessage(method: string, pathAndQuery: string, address: string, chainId: number,
  contract: string, timestamp: string, nonce?: string): string {
  const lines = ['Chan API request', `method: ${method}`, `path: ${pathAndQuery}`, `address: ${address}`,
    `chainId: ${chainId}`, `contract: ${contract.toLowerCase()}`, `timestamp: ${timestamp}`];
  if (nonce !== undefined) lines.push(`nonce: ${nonce}`);
  return lines.join('\n');
}

/** 32 hex digits from the browser's random source: a fresh X-CHAN-Auth-Nonce. */
export function requestNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * X-CHAN-Auth-* headers for one request. Each signature is accepted once and wallets sign
 * deterministically, so every request signs a nonce of its own: two identical requests within the
 * same second are then two signatures, not a replay.
 */
export async function walletSignedHeaders(address: Address, method: string, pathAndQuery: string,
  chainId: number, contract: string): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = requestNonce();
  const signature = await personalSign(address,
    requestMessage(method, pathAndQuery, address, chainId, contract, timestamp, nonce));
  return {
    'X-CHAN-Auth-Address': address,
    'X-CHAN-Auth-Timestamp': timestamp,
    'X-CHAN-Auth-Nonce': nonce,
    'X-CHAN-Auth-Signature': signature,
  };
}

/** The registration message of docs/api.md's "Registration", exactly as the service rebuilds it. */
export function registrationMessage(address: string, apiUrl: string, chainId: number, nonce: string, issuedAt: string): string {
  return ['Chan provider registration', `address: ${address}`, `apiUrl: ${apiUrl}`, `chainId: ${chainId}`,
    `nonce: ${nonce}`, `issuedAt: ${issuedAt}`].join('\n');
}
