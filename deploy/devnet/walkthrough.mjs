// An agent walking the five steps of the service's workflow with viem, the library real agent
// clients use, with every provider the marketplace lists: discover the providers, read the
// signing information (and check that the token is USDC as x402 clients know it on Polygon), and
// for each provider meet the 402, approve USDC and open a channel to it, pay its models (chat:
// three requests, the first without max_tokens, one streamed; a service: its parameters as JSON)
// with vouchers the agent signs itself and budgets as the marketplace's agent client does, close
// cooperatively with the provider's authorization, then compare the chain's token balances with
// the marketplace's and the provider's ledgers. Then a second agent pays with x402 as any x402 agent
// does, with the stock clients unmodified and a viem local account: @x402/fetch with @x402/evm (v2)
// and x402-fetch (v1) each buy every model a provider sells for x402 exact (the flat chat model and
// the word count), and the chain's Transfers of those payments must equal what the providers
// recorded, to the base unit. Exits non-zero on any surprise.
//
//   node deploy/devnet/walkthrough.mjs
//
// Settings (environment): CHAN_MARKETPLACE_URL (default http://127.0.0.1:8080), CHAN_RPC_URL
// (default http://127.0.0.1:8545), CHAN_AGENT_KEY (default anvil's account 3), CHAN_DEPOSIT_USDC
// (default "2"), CHAN_EXPECT_PROVIDERS (how many providers must be listed, default 1),
// CHAN_X402_AGENT_KEY (the x402 payer, default anvil's account 6; it holds USDC and pays no gas),
// CHAN_ADMIN_TOKEN (the local network's; with it, each provider's record of x402 payments is checked).

import {
  createPublicClient, createWalletClient, decodeEventLog, domainSeparator, getAddress, http, keccak256, parseAbi,
  parseEventLogs, recoverTypedDataAddress, toBytes,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { randomBytes } from 'node:crypto';
import { decodePaymentResponseHeader, wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { decodeXPaymentResponse, wrapFetchWithPayment as wrapFetchWithPaymentV1 } from 'x402-fetch';

const marketplace = process.env.CHAN_MARKETPLACE_URL ?? 'http://127.0.0.1:8080';
const rpcUrl = process.env.CHAN_RPC_URL ?? 'http://127.0.0.1:8545';
// anvil's default account 3 (test mnemonic; a throwaway key of the local devnet)
const agentKey = process.env.CHAN_AGENT_KEY
  ?? '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';
const depositUsdc = process.env.CHAN_DEPOSIT_USDC ?? '2';
// anvil's default account 6 (test mnemonic; a throwaway key of the local devnet)
const x402AgentKey = process.env.CHAN_X402_AGENT_KEY
  ?? '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e';

const channelAbi = parseAbi([
  'function open(address provider, uint256 amount, uint256 duration) returns (bytes32)',
  'function cooperativeClose(bytes32 channelId, uint256 finalAmount, bytes providerSignature)',
  'function getChannel(bytes32 channelId) view returns (address consumer, address provider, uint256 deposit, uint256 claimed, uint256 expiry)',
  'function feeBps() view returns (uint256)',
  'function feeRecipient() view returns (address)',
  'event ChannelOpened(bytes32 indexed channelId, address indexed consumer, address indexed provider, uint256 deposit, uint256 expiry)',
]);
const erc20Abi = parseAbi([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
  'function decimals() view returns (uint8)',
]);
// what x402 clients' default asset rules expect of USDC on eip155:137, which the devnet's token is
const X402_POLYGON_USDC = { address: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', name: 'USD Coin', version: '2' };
const usdcDomainAbi = parseAbi([
  'function name() view returns (string)',
  'function version() view returns (string)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
]);

class Surprise extends Error {}
function expect(condition, message) {
  if (!condition) throw new Surprise(message);
}
function step(text) {
  console.log(`\n== ${text}`);
}

async function getJson(url, init) {
  const response = await fetch(url, init);
  const text = await response.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

// A request signed by a wallet (docs/api.md, "Wallet-signed requests"): EIP-191 over the request's
// method, path and query as sent, the party it is sent to (a provider's wallet, lowercase, which
// the agent knows from the listing and the channel on-chain, not from the provider's word), the
// keccak256 of the body exactly as sent, the wallet, the deployment's chain and channel contract,
// the time, and a nonce of the request's own (signatures are deterministic and each is accepted
// once, so without it two identical requests within one second would be one signature, the second
// a replay). So the party that receives it cannot spend it at another, nor with another body. The
// ledger shows a channel's off-chain figures (vouchers, charges) only to its parties.
async function walletSignedHeaders(account, method, url, audience, body, chainId, channelContract) {
  const { pathname, search } = new URL(url);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(16).toString('hex');
  const message = ['Chan API request', `method: ${method}`, `path: ${pathname}${search}`,
    `audience: ${audience.toLowerCase()}`, `bodyHash: ${keccak256(toBytes(body))}`, `address: ${account.address}`,
    `chainId: ${chainId}`, `contract: ${channelContract.toLowerCase()}`, `timestamp: ${timestamp}`,
    `nonce: ${nonce}`].join('\n');
  return {
    'X-CHAN-Auth-Address': account.address,
    'X-CHAN-Auth-Timestamp': timestamp,
    'X-CHAN-Auth-Nonce': nonce,
    'X-CHAN-Auth-Signature': await account.signMessage({ message }),
  };
}

async function waitFor(description, probe, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Surprise(`timed out waiting for ${description}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function main() {
  const agent = privateKeyToAccount(agentKey);

  step('1. discover the providers (GET /api/mcp/providers)');
  const listing = await getJson(`${marketplace}/api/mcp/providers`);
  expect(listing.status === 200, `providers answered ${listing.status}`);
  expect(Array.isArray(listing.body.providers) && listing.body.providers.length > 0, 'no provider is listed');
  // real agent clients keep the providers of their payment scheme: protocol "chan" (the other is "mpp")
  const chanProviders = listing.body.providers.filter((p) => p.protocol === 'chan');
  expect(chanProviders.length === listing.body.providers.length, 'a listed provider does not say protocol "chan"');
  const providers = chanProviders.filter((p) => p.status?.online && p.models?.length > 0);
  const expected = Number(process.env.CHAN_EXPECT_PROVIDERS ?? 1);
  expect(providers.length >= expected, `${providers.length} online providers with models, expected ${expected}`);
  for (const provider of providers) {
    console.log(`provider ${provider.name} (${provider.id}) at ${provider.apiUrl}: models`,
      provider.models.map((m) => `${m.id} ${m.pricing.inputPer1kTokens}/${m.pricing.outputPer1kTokens} (${m.price.kind})`).join(', '));
    const lease = provider.models.find((m) => m.id === 'relay-lease');
    if (lease) {
      // listed per minute, as its provider prices it, not as one price per request (its highest)
      expect(lease.price.kind === 'per-unit' && lease.price.perUnit === '100' && lease.price.unit === 'minutes'
        && lease.pricing.perRequest === undefined, `the relay lease is listed as ${JSON.stringify(lease)}`);
    }
  }

  step('2. read the signing information (GET /api/chan/signing)');
  const signing = (await getJson(`${marketplace}/api/chan/signing`)).body;
  const domain = signing.eip712Domain;
  expect(domain?.name === 'ChanChannel' && String(domain.version) === '1', 'unexpected EIP-712 domain');
  expect(Number(domain.chainId) === 137, `chain id ${domain.chainId}, expected 137`);
  const channelAddress = getAddress(signing.contracts.channel);
  const usdcAddress = getAddress(signing.contracts.usdc);
  expect(getAddress(domain.verifyingContract) === channelAddress, 'domain and channel contract differ');

  const chain = {
    id: 137, name: 'Polygon (local devnet)', nativeCurrency: { name: 'POL', symbol: 'POL', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  };
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl) });
  const wallet = createWalletClient({ account: agent, chain, transport: http(rpcUrl) });
  expect(await publicClient.getChainId() === 137, 'the node is not on chain 137');
  const [tokenName, tokenVersion, tokenDomain] = await Promise.all(['name', 'version', 'DOMAIN_SEPARATOR'].map(
    (functionName) => publicClient.readContract({ address: usdcAddress, abi: usdcDomainAbi, functionName })));
  const { address: x402Address, name, version } = X402_POLYGON_USDC;
  expect(usdcAddress === x402Address && tokenName === name && tokenVersion === version
    && tokenDomain === domainSeparator({ domain: { name, version, chainId: 137, verifyingContract: usdcAddress } }),
  `the token ${usdcAddress} (${tokenName}, version ${tokenVersion}) is not USDC as x402 clients know it on Polygon`);
  console.log(`token ${usdcAddress}: ${tokenName}, EIP-712 version ${tokenVersion}, as x402 clients expect on eip155:137`);


  for (const provider of providers) {
    await walkProvider(provider, { agent, domain, channelAddress, usdcAddress, publicClient, wallet });
  }
  await payWithX402(providers, { usdcAddress, publicClient });
  console.log(`\nwalkthrough complete with ${providers.length} providers: the chain and the ledgers agree to the base unit`);
}

// What a provider recorded as settled x402 payments, all models (its dashboard, read with the admin
// token of the local network); null without the token.
async function x402Ledger(provider) {
  const token = process.env.CHAN_ADMIN_TOKEN;
  if (!token) return null;
  const reply = await getJson(`${provider.apiUrl}/api/provider/dashboard`, { headers: { Authorization: `Bearer ${token}` } });
  expect(reply.status === 200, `${provider.name}'s dashboard answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body.models.reduce((sum, m) => sum + BigInt(m.x402Settled), 0n);
}

const transferEvent = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);

// An agent that knows nothing of channels buys every model sold for x402 exact from every provider,
// once with each stock client, and checks each payment's Transfer on chain against the price and
// against what the provider recorded.
async function payWithX402(providers, { usdcAddress, publicClient }) {
  const payer = privateKeyToAccount(x402AgentKey);
  // the stock clients as their READMEs set them up, with nothing but a local account
  const v2Fetch = wrapFetchWithPaymentFromConfig(fetch, {
    schemes: [{ network: 'eip155:137', client: new ExactEvmScheme(payer) }],
  });
  const v1Fetch = wrapFetchWithPaymentV1(fetch, payer);
  const clients = [
    { name: '@x402/fetch 2.27 (v2)', fetch: v2Fetch, header: 'PAYMENT-RESPONSE', decode: decodePaymentResponseHeader },
    { name: 'x402-fetch 1.2 (v1)', fetch: v1Fetch, header: 'X-PAYMENT-RESPONSE', decode: decodeXPaymentResponse },
  ];
  const balance = (who) => publicClient.readContract({ address: usdcAddress, abi: erc20Abi, functionName: 'balanceOf', args: [who] });
  const payerBefore = await balance(payer.address);
  let bought = 0n;
  let purchases = 0;
  for (const provider of providers) {
    const pricing = (await getJson(`${provider.apiUrl}/v1/pricing`)).body;
    // flat-priced models: a price known before the call, which the walkthrough checks against the chain
    const models = Object.entries(pricing.models)
      .filter(([, m]) => m.payments?.includes('x402-exact') && m.price?.kind === 'flat');
    if (models.length === 0) continue;
    step(`9. pay ${provider.name} with x402 (${models.map(([id]) => id).join(', ')}), with the stock clients`);
    const providerAddress = getAddress(provider.providerAddress);
    const providerBefore = await balance(providerAddress);
    const ledgerBefore = await x402Ledger(provider);
    let received = 0n;
    for (const [id, model] of models) {
      // the demo's one service takes a text; a chat model, a prompt
      const content = id === 'word-count' ? JSON.stringify({ text: 'paid with x402' }) : 'hello';
      const body = JSON.stringify({ model: id, messages: [{ role: 'user', content }] });
      const price = BigInt(model.price.perRequest);
      for (const client of clients) {
        const response = await client.fetch(`${provider.apiUrl}/v1/chat/completions`, {
          method: 'POST', headers: { 'Content-Type': 'application/json' }, body,
        });
        const text = await response.text();
        expect(response.status === 200, `${client.name} buying ${id}: ${response.status} ${text}`);
        const answer = JSON.parse(text);
        expect(typeof answer.choices?.[0]?.message?.content === 'string', `${id} answered no message: ${text}`);
        const header = response.headers.get(client.header);
        expect(header, `${client.name} buying ${id}: no ${client.header}`);
        const settlement = client.decode(header);
        expect(settlement.success === true, `${id}: settlement ${JSON.stringify(settlement)}`);
        const receipt = await publicClient.getTransactionReceipt({ hash: settlement.transaction });
        // the token's Transfers in the settlement (beside them: its AuthorizationUsed)
        const transfers = parseEventLogs({ abi: transferEvent, eventName: 'Transfer', logs: receipt.logs })
          .filter((l) => getAddress(l.address) === usdcAddress).map((l) => l.args);
        expect(transfers.length === 1 && getAddress(transfers[0].from) === payer.address
          && getAddress(transfers[0].to) === providerAddress && transfers[0].value === price,
        `${id}: the settlement's Transfers ${JSON.stringify(transfers, (k, v) => typeof v === 'bigint' ? v.toString() : v)} are not ${price} from the payer to the provider`);
        console.log(`${client.name} bought ${id} for ${price} base units: transaction ${settlement.transaction}, `
          + `${receipt.gasUsed} gas paid by the provider`);
        received += price;
        purchases++;
      }
    }
    const providerAfter = await balance(providerAddress);
    expect(providerAfter - providerBefore === received,
      `${provider.name} received ${providerAfter - providerBefore} on chain, the x402 payments were ${received}`);
    // the provider's dashboard reads the ledger's events of the payments, which it takes in shortly after
    let ledgerAfter = await x402Ledger(provider);
    for (let waited = 0; ledgerAfter !== null && ledgerAfter - ledgerBefore !== received && waited < 30; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      ledgerAfter = await x402Ledger(provider);
    }
    if (ledgerAfter === null) {
      console.log('(no CHAN_ADMIN_TOKEN: the providers\' own records of x402 payments are not read)');
    } else {
      expect(ledgerAfter - ledgerBefore === received,
        `${provider.name} recorded ${ledgerAfter - ledgerBefore} of x402 payments, the chain shows ${received}`);
      console.log(`${provider.name} recorded ${ledgerAfter - ledgerBefore} base units of x402 payments, as the chain`);
    }
    bought += received;
  }
  expect(purchases > 0, 'no provider sells anything for x402 exact');
  const payerAfter = await balance(payer.address);
  expect(payerBefore - payerAfter === bought, `the x402 payer spent ${payerBefore - payerAfter}, it bought ${bought}`);
  console.log(`x402: ${purchases} purchases, ${bought} base units, equal on chain and in the ledgers`);
}

// Opens a channel to one provider, pays each of its models, closes, and checks chain and ledgers.
async function walkProvider(provider, { agent, domain, channelAddress, usdcAddress, publicClient, wallet }) {
  step(`3. call ${provider.name} without a voucher: 402 and payment discovery`);
  const chatUrl = `${provider.apiUrl}/v1/chat/completions`;
  const terms = (await getJson(`${provider.apiUrl}/v1/pricing`)).body.models ?? {};
  const requests = requestsFor(provider, terms);
  expect(requests.length > 0, `nothing to ask ${provider.name}`);
  const unpaid = await getJson(chatUrl, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(requests[0]),
  });
  expect(unpaid.status === 402, `unpaid request answered ${unpaid.status}`);
  const header = (name) => unpaid.headers.get(name);
  expect(header('x-payment-protocol') === 'chan-v2', 'X-Payment-Protocol is not chan-v2');
  expect(getAddress(header('x-payment-provider')) === getAddress(provider.providerAddress), 'X-Payment-Provider differs from the listing');
  expect(getAddress(header('x-payment-contract')) === channelAddress, 'X-Payment-Contract differs from the signing information');
  expect(header('x-payment-chain') === '137', 'X-Payment-Chain is not 137');
  expect(header('x-payment-signing'), 'no X-Payment-Signing');
  expect(header('x-chan-error') === 'voucher_required', 'X-CHAN-Error is not voucher_required');
  const docsUrl = new URL(header('x-payment-docs'), provider.apiUrl).toString();
  const docs = await (await fetch(docsUrl)).text();
  expect(docs.length >= 100, 'the provider docs are shorter than 100 characters');
  console.log(Object.fromEntries([...unpaid.headers].filter(([k]) => k.startsWith('x-'))));

  step('4. approve USDC and open a channel');
  const decimals = await publicClient.readContract({ address: usdcAddress, abi: erc20Abi, functionName: 'decimals' });
  expect(decimals === 6, `USDC has ${decimals} decimals`);
  const deposit = BigInt(Math.round(Number(depositUsdc) * 1e6));
  const providerAddress = getAddress(provider.providerAddress);
  const feeRecipient = await publicClient.readContract({ address: channelAddress, abi: channelAbi, functionName: 'feeRecipient' });
  const feeBps = await publicClient.readContract({ address: channelAddress, abi: channelAbi, functionName: 'feeBps' });
  const balance = (who) => publicClient.readContract({ address: usdcAddress, abi: erc20Abi, functionName: 'balanceOf', args: [who] });
  const before = { agent: await balance(agent.address), provider: await balance(providerAddress), fee: await balance(feeRecipient) };
  expect(before.agent >= deposit, `the agent holds ${before.agent} base units, needs ${deposit}`);

  const approveHash = await wallet.writeContract({ address: usdcAddress, abi: erc20Abi, functionName: 'approve', args: [channelAddress, deposit] });
  expect((await publicClient.waitForTransactionReceipt({ hash: approveHash })).status === 'success', 'approve failed');
  const openHash = await wallet.writeContract({ address: channelAddress, abi: channelAbi, functionName: 'open', args: [providerAddress, deposit, 86_400n] });
  const openReceipt = await publicClient.waitForTransactionReceipt({ hash: openHash });
  expect(openReceipt.status === 'success', 'open failed');
  const opened = openReceipt.logs
    .filter((log) => getAddress(log.address) === channelAddress)
    .map((log) => decodeEventLog({ abi: channelAbi, data: log.data, topics: log.topics }))
    .find((event) => event.eventName === 'ChannelOpened');
  expect(opened, 'no ChannelOpened log');
  const channelId = opened.args.channelId;
  console.log(`channel ${channelId}, deposit ${deposit}, expiry ${opened.args.expiry}`);

  step(`5. ${requests.length} paid requests to ${provider.name}, each with a voucher signed by the agent`);
  const voucherTypes = { Voucher: [
    { name: 'channelId', type: 'bytes32' }, { name: 'amount', type: 'uint256' }, { name: 'nonce', type: 'uint256' },
  ] };
  const typedDomain = { name: domain.name, version: String(domain.version), chainId: 137, verifyingContract: channelAddress };
  const pricesOf = (id) => {
    const priced = provider.models.find((m) => m.id === id);
    return [toBaseUnits(priced.pricing.inputPer1kTokens), toBaseUnits(priced.pricing.outputPer1kTokens)];
  };
  let charged = 0n;
  let authorised = 0n;
  for (const [index, request] of requests.entries()) {
    const nonce = BigInt(index + 1);
    const [inputPer1k, outputPer1k] = pricesOf(request.model);
    // the client's budget: its previous amount on the channel plus this request's estimate
    authorised += budget(request, inputPer1k, outputPer1k);
    expect(authorised <= deposit, 'the deposit is too small for the walkthrough');
    const signature = await agent.signTypedData({
      domain: typedDomain, types: voucherTypes, primaryType: 'Voucher',
      message: { channelId, amount: authorised, nonce },
    });
    const voucher = JSON.stringify({ channelId, amount: authorised.toString(), nonce: nonce.toString(), signature });
    const response = await fetch(chatUrl, {
      method: 'POST', headers: { 'content-type': 'application/json', 'X-CHAN-Voucher': voucher }, body: JSON.stringify(request),
    });
    const text = await response.text();
    expect(response.status === 200, `paid request ${nonce} answered ${response.status}: ${text}`);
    expect(response.headers.get('x-chan-channel')?.toLowerCase() === channelId.toLowerCase(), 'X-CHAN-Channel differs');
    let figures;
    let answer;
    if (request.stream) {
      expect(response.headers.get('content-type')?.startsWith('text/event-stream'), 'a streamed answer is not text/event-stream');
      const stream = readEventStream(text);
      expect(stream.done, 'the stream did not end with data: [DONE]');
      expect(!stream.comments['X-CHAN-Error'], `the stream ended with ${stream.comments['X-CHAN-Error']}`);
      figures = stream.comments;
      answer = stream.content;
    } else {
      const body = JSON.parse(text);
      figures = Object.fromEntries(['X-CHAN-Cost', 'X-CHAN-Total', 'X-CHAN-Remaining'].map((n) => [n, response.headers.get(n)]));
      answer = body.choices?.[0]?.message?.content ?? '';
      const usage = body.usage;
      if (usage && outputPer1k > 0n) {
        const expected = (BigInt(usage.prompt_tokens) * inputPer1k + BigInt(usage.completion_tokens) * outputPer1k) / 1000n;
        expect(BigInt(figures['X-CHAN-Cost']) === expected,
          `X-CHAN-Cost ${figures['X-CHAN-Cost']} differs from the published prices applied to the usage (${expected})`);
      }
    }
    const cost = BigInt(figures['X-CHAN-Cost']);
    const total = BigInt(figures['X-CHAN-Total']);
    const remaining = BigInt(figures['X-CHAN-Remaining']);
    expect(answer.length > 0, `paid request ${nonce} got an empty answer`);
    expect(total === charged + cost, `X-CHAN-Total ${total} is not the previous total ${charged} plus the cost ${cost}`);
    expect(total <= authorised, `X-CHAN-Total ${total} is above the voucher's ${authorised}`);
    expect(remaining === deposit - total, `X-CHAN-Remaining ${remaining} is not deposit minus total`);
    charged = total;
    const priced = terms[request.model];
    if (priced?.price?.kind === 'per-unit') {
      const units = BigInt(JSON.parse(request.messages.at(-1).content)[priced.price.unit]);
      expect(cost === units * BigInt(priced.price.perUnit), `the per-unit request cost ${cost}, not ${units} units`);
    } else if (outputPer1k === 0n) {
      expect(cost === inputPer1k, `the flat-priced request cost ${cost}, not its price ${inputPer1k}`);
    }
    console.log(`request ${nonce} (${request.model})${request.stream ? ' (streamed)' : ''}${request.max_tokens ? ` (max_tokens ${request.max_tokens})` : ''}:`,
      `voucher ${authorised}, cost ${cost}, total ${total}, remaining ${remaining}; answer: ${answer.slice(0, 60)}…`);
  }

  step(`6. ask ${provider.name} for the close authorization, signed by the agent, and close cooperatively`);
  // signed, the channel pays for nothing more at once; the signature is good at this provider only
  const closeUrl = `${provider.apiUrl}/v1/close-channel`;
  const closeBody = JSON.stringify({ channelId });
  const close = await getJson(closeUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...await walletSignedHeaders(agent, 'POST', closeUrl, providerAddress, closeBody, domain.chainId, channelAddress),
    },
    body: closeBody,
  });
  expect(close.status === 200, `close-channel answered ${close.status}: ${JSON.stringify(close.body)}`);
  const finalAmount = BigInt(close.body.finalAmount);
  expect(finalAmount === charged, `finalAmount ${finalAmount} is not what was charged (${charged})`);
  const signer = await recoverTypedDataAddress({
    domain: typedDomain,
    types: { CloseAuthorization: [{ name: 'channelId', type: 'bytes32' }, { name: 'finalAmount', type: 'uint256' }] },
    primaryType: 'CloseAuthorization', message: { channelId, finalAmount }, signature: close.body.signature,
  });
  expect(getAddress(signer) === providerAddress, 'the close authorization is not signed by the provider');
  const closeHash = await wallet.writeContract({
    address: channelAddress, abi: channelAbi, functionName: 'cooperativeClose', args: [channelId, finalAmount, close.body.signature],
  });
  expect((await publicClient.waitForTransactionReceipt({ hash: closeHash })).status === 'success', 'cooperativeClose failed');

  step(`7. token balances and the ledgers of the channel to ${provider.name}`);
  const fee = (finalAmount * feeBps) / 10_000n;
  const after = { agent: await balance(agent.address), provider: await balance(providerAddress), fee: await balance(feeRecipient) };
  console.log({
    agent: `${before.agent} -> ${after.agent}`, provider: `${before.provider} -> ${after.provider}`,
    feeRecipient: `${before.fee} -> ${after.fee}`,
  });
  expect(before.agent - after.agent === finalAmount, 'the agent paid more or less than the final amount');
  expect(after.provider - before.provider === finalAmount - fee, 'the provider did not receive the final amount less the fee');
  expect(after.fee - before.fee === fee, 'the fee recipient did not receive the protocol fee');
  const onChain = await publicClient.readContract({ address: channelAddress, abi: channelAbi, functionName: 'getChannel', args: [channelId] });
  expect(onChain[2] === 0n, 'the contract still holds the channel after the close');

  // the channel's on-chain facts, which anyone may read
  const ledger = await waitFor('the ledger to record the close', async () => {
    const state = await getJson(`${marketplace}/api/channels/${channelId}`);
    return state.status === 200 && state.body.status === 'closed' ? state.body : null;
  }, 120_000);
  expect(BigInt(ledger.deposit) === deposit, `ledger deposit ${ledger.deposit} differs from the chain's ${deposit}`);
  expect(BigInt(ledger.claimed) === finalAmount, `ledger claimed ${ledger.claimed} differs from the chain's ${finalAmount}`);
  expect(BigInt(ledger.feesPaid) === fee, `ledger fees ${ledger.feesPaid} differ from the chain's ${fee}`);
  expect(BigInt(ledger.refund) === deposit - finalAmount, `ledger refund ${ledger.refund} differs from the chain's ${deposit - finalAmount}`);
  // the whole history, vouchers included, is in the provider's own ledger, for the channel's
  // consumer only: the agent signs the request
  const historyUrl = `${provider.apiUrl}/api/channels/${channelId}/events`;
  const historyReply = await getJson(historyUrl,
    { headers: await walletSignedHeaders(agent, 'GET', historyUrl, providerAddress, '', domain.chainId, channelAddress) });
  expect(historyReply.status === 200, `the history answered ${historyReply.status}: ${JSON.stringify(historyReply.body)}`);
  const history = historyReply.body;
  for (const event of history) {
    const p = event.payload;
    const detail = p.amount ? `amount ${p.amount} nonce ${p.nonce}` : p.payout ? `payout ${p.payout} fee ${p.fee}`
      : p.refund ? `refund ${p.refund} (${p.kind})` : p.finalAmount ? `finalAmount ${p.finalAmount}` : '';
    console.log(`#${event.sequence} ${event.type} ${detail}`);
  }
  expect(history.filter((e) => e.type === 'VoucherAccepted').length === requests.length,
    `the ledger does not hold ${requests.length} vouchers`);
  step(`8. report the outcome of the session with ${provider.name} (POST /api/feedback), as agent clients do`);
  const feedback = await getJson(`${marketplace}/api/feedback`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ providerId: provider.id, outcome: 'success', protocol: 'chan' }),
  });
  expect(feedback.status === 202, `feedback answered ${feedback.status}: ${JSON.stringify(feedback.body)}`);
}


// What the agent asks a provider, as a real agent client sends it, from what it sells: its chat
// models priced per token three questions (max_tokens only where the agent set one; one
// streamed), and every other model the example request its provider publishes for it in
// /v1/pricing (a flat-priced chat model a greeting, a service its example parameters as a JSON
// object in the last user message).
function requestsFor(provider, terms) {
  const requests = [];
  for (const model of provider.models) {
    const kind = terms[model.id]?.price?.kind ?? 'tokens';
    if (kind === 'tokens') {
      requests.push(
        { model: model.id, messages: [{ role: 'user', content: 'Name three uses of payment channels for machine-to-machine commerce.' }] },
        { model: model.id, stream: true, messages: [
          { role: 'system', content: 'Answer in one short paragraph.' },
          { role: 'user', content: 'Why does every voucher of a payment channel carry a nonce and a running total?' }] },
        { model: model.id, max_tokens: 64, messages: [{ role: 'user', content: 'Thanks. Summarise that in one line.' }] });
    } else {
      const example = terms[model.id]?.example;
      expect(example?.model === model.id, `${provider.name} publishes no example request for ${model.id}`);
      requests.push(example);
    }
  }
  return requests;
}

// The marketplace's agent client's estimate of one request (docs/protocol.md §D.2), in USDC base units
// (rounded down): input tokens = ceil(characters of all messages / 4), output tokens = max_tokens
// if the agent gave one, else 500; (input/1000 x inputPer1k + output/1000 x outputPer1k) x 1.2,
// or inputPer1k x 1.2 for a flat-priced model (output price 0).
function budget(request, inputPer1k, outputPer1k) {
  if (outputPer1k === 0n && inputPer1k > 0n) return (inputPer1k * 12n) / 10n;
  const characters = request.messages.reduce((sum, message) => sum + message.content.length, 0);
  const inputTokens = BigInt(Math.ceil(characters / 4));
  const outputTokens = BigInt(request.max_tokens ?? 500);
  return ((inputTokens * inputPer1k + outputTokens * outputPer1k) * 12n) / 10_000n;
}

// A streamed answer as the provider sends it: data: {chunk} events, data: [DONE], then the
// figures as comment lines (": X-CHAN-Cost: n").
function readEventStream(text) {
  let content = '';
  let done = false;
  const comments = {};
  for (const line of text.split('\n')) {
    if (line === 'data: [DONE]') {
      done = true;
    } else if (line.startsWith('data: ')) {
      const chunk = JSON.parse(line.slice(6));
      expect(!chunk.error, `the stream carried an error: ${JSON.stringify(chunk.error)}`);
      content += chunk.choices?.[0]?.delta?.content ?? '';
    } else if (line.startsWith(': ')) {
      const [name, value] = line.slice(2).split(': ');
      comments[name] = value;
    }
  }
  return { content, done, comments };
}

function toBaseUnits(decimalUsdc) {
  const [whole, fraction = ''] = String(decimalUsdc).split('.');
  expect(/^\d+$/.test(whole) && /^\d{0,6}$/.test(fraction), `not a USDC amount: ${decimalUsdc}`);
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
}

main().catch((error) => {
  console.error(`\nwalkthrough FAILED: ${error instanceof Surprise ? error.message : error.stack ?? error}`);
  process.exit(1);
});
