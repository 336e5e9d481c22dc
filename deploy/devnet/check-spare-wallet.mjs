// Checks the spare wallet the local network prints (deploy/run.sh's summary, read on stdin): its
// key is the printed address's, and it holds test USDC and gas money on the devnet, so that a
// newcomer can start a provider of their own with it. Exits non-zero otherwise.
//
//   node deploy/devnet/check-spare-wallet.mjs < the-local-network's-output
//
// Settings (environment): CHAN_RPC_URL (default http://127.0.0.1:8545).

import { readFileSync } from 'node:fs';
import { createPublicClient, getAddress, http, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const rpcUrl = process.env.CHAN_RPC_URL ?? 'http://127.0.0.1:8545';
// the devnet's test USDC sits at Polygon's USDC address (deploy/devnet/deploy.mjs)
const USDC = '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359';
// what one provider of one's own needs at least: gas for a few claims, and USDC to pay itself in a test
const MIN_GAS_WEI = 10n ** 18n;
const MIN_USDC_BASE_UNITS = 1_000_000n;

function fail(message) {
  console.error(`spare wallet: ${message}`);
  process.exit(1);
}

const printed = readFileSync(0, 'utf8');
const line = printed.match(/^ *spare +(0x[0-9a-fA-F]{40}) +key +(0x[0-9a-fA-F]{64})\b/m);
if (!line) fail('the local network printed no line "spare <address>  key <key>"');
const [, address, key] = line;
if (!/TEST ONLY/.test(printed)) fail('the spare wallet is not marked TEST ONLY');
if (privateKeyToAccount(key).address !== getAddress(address)) fail(`the printed key is not ${address}'s`);

const client = createPublicClient({ transport: http(rpcUrl) });
const gas = await client.getBalance({ address });
const usdc = await client.readContract({
  address: USDC,
  abi: parseAbi(['function balanceOf(address owner) view returns (uint256)']),
  functionName: 'balanceOf',
  args: [address],
});
if (gas < MIN_GAS_WEI) fail(`${address} holds ${gas} wei, less than ${MIN_GAS_WEI} for gas`);
if (usdc < MIN_USDC_BASE_UNITS) fail(`${address} holds ${usdc} base units of USDC, less than ${MIN_USDC_BASE_UNITS}`);
console.log(`spare wallet ${address}: ${usdc} base units of test USDC, ${gas} wei for gas`);
