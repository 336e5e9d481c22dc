#!/usr/bin/env node
// Deploys ChanChannel and TestUSDC to a fresh anvil (see start-anvil.sh), funds the test wallets
// and prints a JSON summary. ChanChannel is the deployer's first transaction, so on a fresh node
// it lands at 0x5FbDB2315678afecb367f032d93F642f64180aa3, the verifyingContract of the EIP-712
// test vectors. TestUSDC sits at Polygon's USDC address, 0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359,
// so x402 clients' default asset rules for eip155:137 accept it: having no constructor, its runtime
// code is the whole token, placed there with anvil_setCode; its EIP-712 domain (USD Coin, 2) takes
// the address it sits at, which the script checks before going on.
//
// Environment: CHAN_RPC_URL (default http://127.0.0.1:$ANVIL_PORT, port 8545),
// CHAN_FEE_RECIPIENT, CHAN_FEE_BPS (default 200), CHAN_MINT_USDC (whole USDC per wallet).

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const artifactsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'contracts', 'artifacts');
const channelArtifact = JSON.parse(readFileSync(join(artifactsDir, 'ChanChannel.json'), 'utf8'));
const usdcArtifact = JSON.parse(readFileSync(join(artifactsDir, 'TestUSDC.json'), 'utf8'));

const rpcUrl = process.env.CHAN_RPC_URL ?? `http://127.0.0.1:${process.env.ANVIL_PORT ?? '8545'}`;
// Wallets of the EIP-712 test vectors (private key = keccak256 of the label): their vouchers
// verify against this deployment, so they get USDC and gas money too.
const VECTOR_WALLETS = {
  'consumer-1': '0x5315f457a01C71a5d7eE87DA126aF57E8CdedA47',
  'provider-1': '0x888a81f924FEE3DD0BE6367484CAa4E91AD34A3f',
};
const feeRecipient = process.env.CHAN_FEE_RECIPIENT ?? '0xaa6A842922B7f440567beD28eC36608AB38af7E2';
const feeBps = BigInt(process.env.CHAN_FEE_BPS ?? '200');
const mintPerWallet = BigInt(process.env.CHAN_MINT_USDC ?? '1000000') * 10n ** 6n;
const GAS_MONEY = 100n * 10n ** 18n;
const VECTORS_CONTRACT = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
// Polygon PoS's native USDC, whose signing domain TestUSDC has
const POLYGON_USDC = '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359';

let requestId = 0;
async function rpc(method, params = []) {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++requestId, method, params }),
  });
  const body = await response.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

const word = (value) => BigInt(value).toString(16).padStart(64, '0');
const hex = (value) => `0x${BigInt(value).toString(16)}`;

function rlpNonce(nonce) {
  if (nonce === 0n) return '80';
  if (nonce < 0x80n) return nonce.toString(16).padStart(2, '0');
  let digits = nonce.toString(16);
  if (digits.length % 2) digits = `0${digits}`;
  return (0x80 + digits.length / 2).toString(16) + digits;
}

// CREATE address = last 20 bytes of keccak256(rlp([sender, nonce])); the node does the keccak.
async function createAddress(sender, nonce) {
  const payload = `94${sender.slice(2).toLowerCase()}${rlpNonce(nonce)}`;
  const list = (0xc0 + payload.length / 2).toString(16) + payload;
  const hash = await rpc('web3_sha3', [`0x${list}`]);
  return `0x${hash.slice(-40)}`;
}

async function send(tx) {
  const hash = await rpc('eth_sendTransaction', [tx]);
  for (;;) {
    const receipt = await rpc('eth_getTransactionReceipt', [hash]);
    if (receipt) {
      if (receipt.status !== '0x1') throw new Error(`transaction ${hash} reverted`);
      return receipt;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const call = (artifact, signature, ...words) => `0x${artifact.methodIdentifiers[signature]}${words.map(word).join('')}`;
const keccak = (hexData) => rpc('web3_sha3', [hexData]);
const utf8 = (text) => `0x${Buffer.from(text, 'utf8').toString('hex')}`;

// Places TestUSDC's runtime code at Polygon's USDC address and checks that the token signs in the
// domain x402 clients sign payments in there: USD Coin, version 2, this chain, this address.
async function placeUsdc(chainId) {
  await rpc('anvil_setCode', [POLYGON_USDC, usdcArtifact.deployedBytecode]);
  const parts = await Promise.all([
    keccak(utf8('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)')),
    keccak(utf8('USD Coin')), keccak(utf8('2')),
  ]);
  const expected = await keccak(`0x${parts.map((h) => h.slice(2)).join('')}${word(chainId)}${word(POLYGON_USDC)}`);
  const actual = await rpc('eth_call', [{ to: POLYGON_USDC, data: call(usdcArtifact, 'DOMAIN_SEPARATOR()') }, 'latest']);
  if (actual !== expected) {
    throw new Error(`TestUSDC at ${POLYGON_USDC} answers domain separator ${actual}, expected ${expected}`);
  }
}

async function main() {
  const chainId = BigInt(await rpc('eth_chainId'));
  const accounts = await rpc('eth_accounts');
  const deployer = accounts[0];
  const nonce = BigInt(await rpc('eth_getTransactionCount', [deployer, 'pending']));
  const channel = await createAddress(deployer, nonce);
  if (nonce !== 0n) {
    throw new Error(`the deployer ${deployer} has already sent ${nonce} transaction(s); ChanChannel must be its `
      + 'first so that it lands at the EIP-712 vectors\' address. Deploy on a freshly started anvil.');
  }
  if (channel !== VECTORS_CONTRACT) {
    console.error(`warning: ChanChannel goes to ${channel}, not ${VECTORS_CONTRACT}: anvil runs with another mnemonic`);
  }

  await placeUsdc(chainId);
  const usdc = POLYGON_USDC;
  const channelReceipt = await send({
    from: deployer,
    data: channelArtifact.bytecode + word(usdc) + word(feeRecipient) + word(feeBps),
  });
  if (channelReceipt.contractAddress.toLowerCase() !== channel) {
    throw new Error('ChanChannel did not land at the precomputed address');
  }

  const wallets = [
    ...accounts.slice(1, 10).map((address, i) => ({ label: `anvil-${i + 1}`, address })),
    ...Object.entries(VECTOR_WALLETS).map(([label, address]) => ({ label, address })),
  ];
  for (const { address } of wallets) {
    await send({ from: deployer, to: usdc, data: call(usdcArtifact, 'mint(address,uint256)', address, mintPerWallet) });
  }
  for (const address of Object.values(VECTOR_WALLETS)) {
    await rpc('anvil_setBalance', [address, hex(GAS_MONEY)]);
  }

  console.log(JSON.stringify({
    rpcUrl,
    chainId: Number(chainId),
    contract: channel,
    usdc,
    deployer,
    deployBlock: Number(BigInt(channelReceipt.blockNumber)),
    feeRecipient,
    feeBps: Number(feeBps),
    wallets: wallets.map((w) => ({ ...w, usdc: mintPerWallet.toString() })),
  }, null, 2));
}

main().catch((error) => {
  console.error(`deploy failed: ${error.message}`);
  process.exit(1);
});
