#!/usr/bin/env node
// Writes the EIP-3009 known-answer vectors of the devnet's USDC (Polygon's USDC domain: USD Coin,
// version 2, chain 137, 0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359) with viem, the library x402's
// clients sign with, so the Java tests and the token are checked against digests and signatures
// the project's own code did not compute. Signing is deterministic (RFC 6979): a rerun writes the
// same bytes.
//
//   node deploy/contracts/eip3009-vectors.mjs           write the vectors
//   node deploy/contracts/eip3009-vectors.mjs --check   exit 1 if the committed vectors differ

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashDomain, hashStruct, hashTypedData, keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const repository = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const target = join(repository, 'ledger-domain', 'src', 'test', 'resources', 'vectors', 'eip3009-vectors.json');
const viemVersion = JSON.parse(readFileSync(join(repository, 'deploy', 'node_modules', 'viem', 'package.json'), 'utf8')).version;

const POLYGON_USDC = '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359';
const DOMAIN = { name: 'USD Coin', version: '2', chainId: 137, verifyingContract: POLYGON_USDC };
const AUTHORIZATION_FIELDS = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
];
const TYPES = {
  TransferWithAuthorization: AUTHORIZATION_FIELDS,
  ReceiveWithAuthorization: AUTHORIZATION_FIELDS,
  CancelAuthorization: [{ name: 'authorizer', type: 'address' }, { name: 'nonce', type: 'bytes32' }],
};
const TYPE_STRINGS = Object.fromEntries(Object.entries(TYPES).map(([name, fields]) =>
  [name, `${name}(${fields.map((f) => `${f.type} ${f.name}`).join(',')})`]));

// The ledger-domain vectors' key derivation: privateKey = keccak256(utf8(label)); the devnet funds both.
const keys = ['consumer-1', 'provider-1'].map((label) => {
  const privateKey = keccak256(toHex(label));
  return { label, privateKey, address: privateKeyToAccount(privateKey).address };
});
const [payer, payee] = keys;
const nonce = (label) => keccak256(toHex(`eip3009-vector:${label}`));
// 2100-01-01T00:00:00Z: valid on any devnet for the life of the project
const FAR_FUTURE = 4102444800n;

const CASES = [
  {
    id: 'transfer-as-x402-v2-signs',
    description: 'an x402 v2 exact payment: validAfter 0, 0.01 USDC to the payee',
    primaryType: 'TransferWithAuthorization',
    message: { from: payer.address, to: payee.address, value: 10000n, validAfter: 0n, validBefore: FAR_FUTURE, nonce: nonce(1) },
  },
  {
    id: 'transfer-with-a-window',
    description: 'validAfter and validBefore both set, 1.5 USDC',
    primaryType: 'TransferWithAuthorization',
    message: { from: payer.address, to: payee.address, value: 1500000n, validAfter: 1700000000n, validBefore: FAR_FUTURE, nonce: nonce(2) },
  },
  {
    id: 'receive',
    description: 'the same fields under ReceiveWithAuthorization: only the payee may send it',
    primaryType: 'ReceiveWithAuthorization',
    message: { from: payer.address, to: payee.address, value: 250000n, validAfter: 0n, validBefore: FAR_FUTURE, nonce: nonce(3) },
  },
  {
    id: 'cancel',
    description: 'the payer spends a nonce without a transfer',
    primaryType: 'CancelAuthorization',
    message: { authorizer: payer.address, nonce: nonce(4) },
  },
  {
    id: 'transfer-for-another-chain',
    description: 'transfer-as-x402-v2-signs signed for chain 80002 (Amoy) at the same address: another digest, refused on chain 137',
    primaryType: 'TransferWithAuthorization',
    domain: { ...DOMAIN, chainId: 80002 },
    message: { from: payer.address, to: payee.address, value: 10000n, validAfter: 0n, validBefore: FAR_FUTURE, nonce: nonce(1) },
  },
];

async function vectors() {
  const account = privateKeyToAccount(payer.privateKey);
  const cases = [];
  for (const c of CASES) {
    const domain = c.domain ?? DOMAIN;
    const typed = { domain, types: TYPES, primaryType: c.primaryType, message: c.message };
    cases.push({
      id: c.id,
      description: c.description,
      signer: payer.label,
      primaryType: c.primaryType,
      ...(c.domain ? { domain: { ...domain } } : {}),
      message: Object.fromEntries(Object.entries(c.message).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v])),
      structHash: hashStruct({ data: c.message, primaryType: c.primaryType, types: TYPES }),
      digest: hashTypedData(typed),
      signature: await account.signTypedData(typed),
    });
  }
  return {
    schemaVersion: 1,
    description: 'EIP-3009 authorizations of Polygon\'s USDC (FiatToken v2.2) as x402\'s exact scheme has payers sign '
      + 'them: EIP-712 digests and 65-byte signatures (r || s || v, low s, v 27 or 28) made with viem, independently '
      + 'of the project\'s code. The devnet\'s TestUSDC sits at the same address with the same domain, so each '
      + 'signature of the domain below settles on it.',
    generator: { script: 'deploy/contracts/eip3009-vectors.mjs', viem: viemVersion },
    domain: DOMAIN,
    domainSeparator: hashDomain({ domain: DOMAIN, types: { EIP712Domain: [
      { name: 'name', type: 'string' }, { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' },
    ] } }),
    typeHashes: Object.fromEntries(Object.entries(TYPE_STRINGS).map(([name, text]) =>
      [name, { type: text, hash: keccak256(toHex(text)) }])),
    keys,
    authorizations: cases,
  };
}

const text = `${JSON.stringify(await vectors(), null, 2)}\n`;
if (process.argv.includes('--check')) {
  const committed = existsSync(target) ? readFileSync(target, 'utf8').replace(/\r\n/g, '\n') : null;
  if (committed !== text) {
    console.error(`${target} ${committed === null ? 'is missing' : 'differs from what viem makes'}; run node deploy/contracts/eip3009-vectors.mjs`);
    process.exit(1);
  }
  console.log(`EIP-3009 vectors up to date (viem ${viemVersion})`);
} else {
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
