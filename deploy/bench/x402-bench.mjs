// x402-paid requests on the local network (deploy/run.sh), paid by the stock client @x402/fetch with
// a viem local account: the latency of one request (p50, p99), next to, in the same run, the chain's
// own wait (a bare transferWithAuthorization sent and its receipt awaited, as the provider's
// settlement does) and the unpaid 402 round trip; and the provider's CPU per request, from /proc:
// a paid request, an unpaid 402, and a payment refused at its signature (what verification costs
// before the chain is asked: the header read, the offer matched, the EIP-712 digest and the
// signature recovered), less the unpaid 402.
//
//   node deploy/bench/x402-bench.mjs   (deploy/bench/x402-bench.sh starts the network and runs it)
//
// Settings (environment): BENCH_PROVIDER_URL (the chat provider), BENCH_PROVIDER_PID (its process),
// CHAN_RPC_URL, BENCH_REQUESTS (default 200), BENCH_MODEL (default stub-chat-flat).

import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createPublicClient, createWalletClient, getAddress, http, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';

const providerUrl = process.env.BENCH_PROVIDER_URL;
const providerPid = process.env.BENCH_PROVIDER_PID;
const rpcUrl = process.env.CHAN_RPC_URL ?? 'http://127.0.0.1:8545';
const requests = Number(process.env.BENCH_REQUESTS ?? 200);
const model = process.env.BENCH_MODEL ?? 'stub-chat-flat';
// anvil's default accounts 7 (the payer: USDC, no gas used) and 8 (the relayer of the bare transfers)
const payer = privateKeyToAccount('0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356');
const relayer = privateKeyToAccount('0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97');
const USDC = '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359';
const chain = { id: 137, name: 'Polygon (local devnet)', nativeCurrency: { name: 'POL', symbol: 'POL', decimals: 18 },
  rpcUrls: { default: { http: [rpcUrl] } } };
const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }] });
const url = `${providerUrl}/v1/chat/completions`;

function cpuTicks() {
  const fields = readFileSync(`/proc/${providerPid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
const ticksPerMs = 100 / 1000;

async function timed(n, run) {
  const times = [];
  const before = cpuTicks();
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await run(i);
    times.push(performance.now() - start);
  }
  const cpuMs = (cpuTicks() - before) / ticksPerMs / n;
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { p50: at(0.5), p99: at(0.99), cpuMs };
}

const authorizationTypes = { TransferWithAuthorization: [
  { name: 'from', type: 'address' }, { name: 'to', type: 'address' }, { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' }, { name: 'validBefore', type: 'uint256' }, { name: 'nonce', type: 'bytes32' }] };
const domain = { name: 'USD Coin', version: '2', chainId: 137, verifyingContract: USDC };

async function main() {
  const paidFetch = wrapFetchWithPaymentFromConfig(fetch, { schemes: [{ network: 'eip155:137', client: new ExactEvmScheme(payer) }] });
  const unpaid = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  const offer = JSON.parse(Buffer.from(unpaid.headers.get('PAYMENT-REQUIRED'), 'base64').toString()).accepts[0];
  const payTo = getAddress(offer.payTo);
  const price = BigInt(offer.amount);

  // warm-up: the provider's JIT, connections, the token's storage of the payer
  for (let i = 0; i < 20; i++) {
    const r = await paidFetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    if (r.status !== 200) throw new Error(`warm-up request: ${r.status} ${await r.text()}`);
    await r.arrayBuffer();
  }

  const paid = await timed(requests, async () => {
    const r = await paidFetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    if (r.status !== 200) throw new Error(`paid request: ${r.status} ${await r.text()}`);
    await r.arrayBuffer();
  });
  const unpaidRound = await timed(requests, async () => {
    const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    if (r.status !== 402) throw new Error(`unpaid request: ${r.status}`);
    await r.arrayBuffer();
  });
  // refused at its signature: signed by the relayer for the payer's authorization
  const forged = await timed(requests, async () => {
    const now = Math.floor(Date.now() / 1000);
    const authorization = { from: payer.address, to: payTo, value: price, validAfter: 0n, validBefore: BigInt(now + 3600),
      nonce: `0x${randomBytes(32).toString('hex')}` };
    const signature = await relayer.signTypedData({ domain, types: authorizationTypes, primaryType: 'TransferWithAuthorization',
      message: authorization });
    const header = Buffer.from(JSON.stringify({ x402Version: 2, accepted: offer, payload: { signature,
      authorization: { ...authorization, value: String(price), validAfter: '0', validBefore: String(authorization.validBefore) } } }))
      .toString('base64');
    const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'PAYMENT-SIGNATURE': header }, body });
    if (r.status !== 402 || r.headers.get('X-CHAN-Error') !== 'invalid_exact_evm_payload_signature') {
      throw new Error(`forged payment: ${r.status} ${r.headers.get('X-CHAN-Error')}`);
    }
    await r.arrayBuffer();
  });

  // the chain's own wait: the payer's authorization sent bare by a relayer, receipt awaited
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 20 });
  const wallet = createWalletClient({ account: relayer, chain, transport: http(rpcUrl) });
  const token = parseAbi(['function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)']);
  let gas = 0n;
  const bare = await timed(Math.min(requests, 100), async () => {
    const now = Math.floor(Date.now() / 1000);
    const a = { from: payer.address, to: relayer.address, value: 1n, validAfter: 0n, validBefore: BigInt(now + 3600),
      nonce: `0x${randomBytes(32).toString('hex')}` };
    const signature = await payer.signTypedData({ domain, types: authorizationTypes, primaryType: 'TransferWithAuthorization', message: a });
    const hash = await wallet.writeContract({ address: USDC, abi: token, functionName: 'transferWithAuthorization',
      args: [a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, signature] });
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    gas = receipt.gasUsed;
  });

  const f = (ms) => ms.toFixed(1);
  console.log(`x402 bench, ${requests} requests each, ${model} at ${providerUrl} (price ${price} base units)`);
  console.log('| measure | p50 ms | p99 ms | provider CPU ms per request |');
  console.log('|---|---|---|---|');
  console.log(`| x402-paid request (stock @x402/fetch: 402, sign, pay) | ${f(paid.p50)} | ${f(paid.p99)} | ${paid.cpuMs.toFixed(2)} |`);
  console.log(`| unpaid request (its 402) | ${f(unpaidRound.p50)} | ${f(unpaidRound.p99)} | ${unpaidRound.cpuMs.toFixed(2)} |`);
  console.log(`| payment refused at its signature | ${f(forged.p50)} | ${f(forged.p99)} | ${forged.cpuMs.toFixed(2)} |`);
  console.log(`| bare transferWithAuthorization, sent and mined (the chain's wait) | ${f(bare.p50)} | ${f(bare.p99)} | — |`);
  console.log(`verification's CPU before the chain is asked (refused at signature − unpaid 402): `
    + `${(forged.cpuMs - unpaidRound.cpuMs).toFixed(3)} ms; one settlement: ${gas} gas`);
}

main().catch((e) => { console.error(e); process.exit(1); });
