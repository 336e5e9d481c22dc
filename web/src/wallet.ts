// The browser wallet (EIP-1193 `window.ethereum`: MetaMask, Rabby, …) through viem: connect, and
// personal_sign (EIP-191) of the registration message and of wallet-signed API requests.
import { createWalletClient, custom, getAddress, keccak256, toBytes, type Address, type EIP1193Provider } from 'viem';
import { getJson } from './api';
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

/** What a wallet-signed request's text is made of (docs/api.md, "Wallet-signed requests"). */
export interface SignedRequest {
  method: string;
  /** The path and query exactly as sent. */
  pathAndQuery: string;
  /** The party the request goes to: a provider's wallet, lowercase, or the marketplace's URL. */
  audience: string;
  /** The body exactly as sent; '' for none. */
  body: string;
  address: string;
  chainId: number;
  contract: string;
  timestamp: string;
  nonce: string;
}

/** 0x + keccak256 of the body's UTF-8 bytes: the `bodyHash` line. */
export function bodyHash(body: string): `0x${string}` {
  return keccak256(toBytes(body));
}

/**
 * The text a wallet signs for a request, byte for byte as the service rebuilds it: it names the
 * party it is for and the body's hash, so no other party and no other body can use it.
 */
export function requestMessage(request: SignedRequest): string {
  return ['Chan API request', `method: ${request.method}`, `path: ${request.pathAndQuery}`,
    `audience: ${request.audience}`, `bodyHash: ${bodyHash(request.body)}`, `address: ${request.address}`,
    `chainId: ${request.chainId}`, `contract: ${request.contract.toLowerCase()}`, `timestamp: ${request.timestamp}`,
    `nonce: ${request.nonce}`].join('\n');
}

/** 32 hex digits from the browser's random source: a fresh X-CHAN-Auth-Nonce. */
export function requestNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

let audience: Promise<string> | null = null;

/**
 * The audience this server expects, from the server that served this page: the page trusts it as
 * much as its own code. Every request of these pages goes to that server.
 */
export function serverAudience(): Promise<string> {
  audience ??= getJson<{ audience: string }>('/api/chan/audience').then((answer) => answer.audience);
  return audience;
}

/**
 * X-CHAN-Auth-* headers for one request to this page's server. Each signature is accepted once and
 * wallets sign deterministically, so every request signs a nonce of its own: two identical
 * requests within the same second are then two signatures, not a replay.
 */
export async function walletSignedHeaders(address: Address, method: string, pathAndQuery: string,
  chainId: number, contract: string, body = ''): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = requestNonce();
  const signature = await personalSign(address, requestMessage({
    method, pathAndQuery, audience: await serverAudience(), body, address, chainId, contract, timestamp, nonce,
  }));
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
