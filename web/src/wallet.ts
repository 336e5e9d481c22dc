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

/** The text a wallet signs for a request (docs/api.md, "Wallet-signed requests"). */
export function requestMessage(method: string, pathAndQuery: string, address: string, chainId: number,
  contract: string, timestamp: string): string {
  return ['Chan API request', `method: ${method}`, `path: ${pathAndQuery}`, `address: ${address}`,
    `chainId: ${chainId}`, `contract: ${contract.toLowerCase()}`, `timestamp: ${timestamp}`].join('\n');
}

/** X-CHAN-Auth-* headers for one request; each signature is accepted once, so sign every request anew. */
export async function walletSignedHeaders(address: Address, method: string, pathAndQuery: string,
  chainId: number, contract: string): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = await personalSign(address, requestMessage(method, pathAndQuery, address, chainId, contract, timestamp));
  return { 'X-CHAN-Auth-Address': address, 'X-CHAN-Auth-Timestamp': timestamp, 'X-CHAN-Auth-Signature': signature };
}

/** The registration message of docs/api.md's "Registration", exactly as the service rebuilds it. */
export function registrationMessage(address: string, apiUrl: string, chainId: number, nonce: string, issuedAt: string): string {
  return ['Chan provider registration', `address: ${address}`, `apiUrl: ${apiUrl}`, `chainId: ${chainId}`,
    `nonce: ${nonce}`, `issuedAt: ${issuedAt}`].join('\n');
}
