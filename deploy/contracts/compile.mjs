#!/usr/bin/env node
// Compiles the contracts with the solc version pinned in deploy/package.json and writes one
// artifact per contract to deploy/contracts/artifacts/.
//
//   node deploy/contracts/compile.mjs           write the artifacts
//   node deploy/contracts/compile.mjs --check   exit 1 if the committed artifacts are stale

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const contractsDir = dirname(fileURLToPath(import.meta.url));
const artifactsDir = join(contractsDir, 'artifacts');
const CONTRACTS = ['ChanChannel', 'TestUSDC', 'TestWallet'];

// Explicit so the bytecode does not follow the compiler's default; anvil 1.x runs cancun.
const SETTINGS = {
  evmVersion: 'cancun',
  optimizer: { enabled: true, runs: 200 },
  outputSelection: {
    '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.methodIdentifiers'] },
  },
};

function compile() {
  const sources = {};
  for (const name of CONTRACTS) {
    // Line endings normalised so a Windows checkout compiles to the same bytes.
    sources[`${name}.sol`] = { content: readFileSync(join(contractsDir, `${name}.sol`), 'utf8').replace(/\r\n/g, '\n') };
  }
  const output = JSON.parse(solc.compile(JSON.stringify({ language: 'Solidity', sources, settings: SETTINGS })));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  for (const message of output.errors ?? []) console.error(message.formattedMessage);
  if (errors.length > 0) throw new Error(`compilation failed with ${errors.length} error(s)`);

  const version = solc.version();
  return Object.fromEntries(CONTRACTS.map((name) => {
    const sourceName = `${name}.sol`;
    const contract = output.contracts[sourceName][name];
    const artifact = {
      contractName: name,
      sourceName,
      sourceSha256: createHash('sha256').update(sources[sourceName].content).digest('hex'),
      compiler: {
        name: 'solc',
        version,
        evmVersion: SETTINGS.evmVersion,
        optimizer: SETTINGS.optimizer,
      },
      abi: contract.abi,
      methodIdentifiers: contract.evm.methodIdentifiers,
      bytecode: `0x${contract.evm.bytecode.object}`,
      deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
    };
    return [name, `${JSON.stringify(artifact, null, 2)}\n`];
  }));
}

const check = process.argv.includes('--check');
const fresh = compile();
let stale = 0;
for (const [name, text] of Object.entries(fresh)) {
  const path = join(artifactsDir, `${name}.json`);
  if (check) {
    const committed = existsSync(path) ? readFileSync(path, 'utf8').replace(/\r\n/g, '\n') : null;
    if (committed !== text) {
      stale++;
      console.error(`${name}.json ${committed === null ? 'is missing' : 'differs from a fresh compile'}`);
    }
  } else {
    mkdirSync(artifactsDir, { recursive: true });
    writeFileSync(path, text);
    console.log(`wrote artifacts/${name}.json`);
  }
}
if (check) {
  if (stale > 0) {
    console.error('Run `node deploy/contracts/compile.mjs` and commit deploy/contracts/artifacts/.');
    process.exit(1);
  }
  console.log(`artifacts up to date (solc ${solc.version()})`);
}
