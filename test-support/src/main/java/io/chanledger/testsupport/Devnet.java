package io.chanledger.testsupport;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.FunctionReturnDecoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.DynamicBytes;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;

/**
 * ChanChannel and TestUSDC deployed on an anvil node exactly as {@code deploy/devnet/deploy.mjs}
 * does it (the channel contract is the deployer's first transaction, so it sits at
 * {@link #VECTORS_CONTRACT}; the token sits at {@link #POLYGON_USDC}), the test wallets funded,
 * and typed calls to both contracts.
 */
public final class Devnet {

    /** The verifyingContract of the EIP-712 test vectors: anvil account 0's first CREATE. */
    public static final String VECTORS_CONTRACT = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
    /**
     * Polygon PoS's native USDC, where the devnet's TestUSDC sits with that token's signing domain,
     * so x402 clients' default asset rules for {@code eip155:137} accept it.
     */
    public static final String POLYGON_USDC = "0x3c499c542cef5e3811e1192ce70d8cc03d5c3359";
    public static final BigInteger FEE_BPS = BigInteger.valueOf(200);
    public static final String FEE_RECIPIENT = DevnetAccounts.FEE_RECIPIENT_1.getAddress();
    /** USDC (base units) every anvil account 1..9 and the vectors' consumer-1 and provider-1 start with. */
    public static final BigInteger USDC_PER_WALLET = BigInteger.valueOf(1_000_000_000_000L);
    public static final BigInteger GAS_MONEY = BigInteger.TEN.pow(20);

    private static final ContractArtifact CHANNEL_ARTIFACT = ContractArtifact.load("ChanChannel");
    private static final ContractArtifact USDC_ARTIFACT = ContractArtifact.load("TestUSDC");
    private static Devnet shared;

    private final AnvilNode node;
    private final ChainRpc rpc;
    private final String channel;
    private final String usdc;
    private final BigInteger deployBlock;
    private final Map<String, String> eventsByTopic = new HashMap<>();

    private Devnet(AnvilNode node, ChainRpc rpc, String channel, String usdc, BigInteger deployBlock) {
        this.node = node;
        this.rpc = rpc;
        this.channel = channel;
        this.usdc = usdc;
        this.deployBlock = deployBlock;
        for (String signature : CHANNEL_ARTIFACT.eventSignatures()) {
            eventsByTopic.put(Hash.sha3String(signature), signature.substring(0, signature.indexOf('(')));
        }
    }

    /** The contracts on {@link AnvilNode#shared()}, deployed once per JVM. */
    public static synchronized Devnet shared() {
        if (shared == null || shared.node != AnvilNode.shared()) {
            shared = deploy(AnvilNode.shared());
        }
        return shared;
    }

    /** Deploys on a node whose account 0 has not sent a transaction yet. */
    public static Devnet deploy(AnvilNode node) {
        ChainRpc rpc = new ChainRpc(node, List.of(CHANNEL_ARTIFACT, USDC_ARTIFACT));
        Credentials deployer = DevnetAccounts.deployer();
        BigInteger nonce = nonceOf(rpc, deployer.getAddress());
        if (nonce.signum() != 0) {
            throw new IllegalStateException("anvil account 0 has already sent " + nonce + " transactions; "
                    + "deploy on a fresh node so the channel contract lands at " + VECTORS_CONTRACT);
        }
        placeUsdc(rpc);
        String constructorArgs = FunctionEncoder.encodeConstructor(List.of(
                new Address(POLYGON_USDC), new Address(FEE_RECIPIENT), new Uint256(FEE_BPS)));
        TransactionReceipt channelReceipt = rpc.send(deployer, null, CHANNEL_ARTIFACT.bytecode() + constructorArgs);
        Devnet devnet = new Devnet(node, rpc, channelReceipt.getContractAddress(), POLYGON_USDC,
                channelReceipt.getBlockNumber());
        List<String> wallets = new ArrayList<>();
        DevnetAccounts.anvilAccounts().stream().skip(1).forEach(account -> wallets.add(account.getAddress()));
        wallets.add(DevnetAccounts.CONSUMER_1.getAddress());
        wallets.add(DevnetAccounts.PROVIDER_1.getAddress());
        wallets.forEach(wallet -> devnet.mint(wallet, USDC_PER_WALLET));
        rpc.setBalance(DevnetAccounts.CONSUMER_1.getAddress(), GAS_MONEY);
        rpc.setBalance(DevnetAccounts.PROVIDER_1.getAddress(), GAS_MONEY);
        return devnet;
    }

    /**
     * TestUSDC has no constructor, so its runtime code is the whole token: placed at Polygon's USDC
     * address, it signs in the domain x402 clients sign in there, which is checked before use.
     */
    private static void placeUsdc(ChainRpc rpc) {
        rpc.raw("anvil_setCode", POLYGON_USDC, USDC_ARTIFACT.deployedBytecode());
        UsdcAuthorizations token = new UsdcAuthorizations(rpc, POLYGON_USDC, AnvilNode.CHAIN_ID);
        if (!Arrays.equals(token.contractDomainSeparator(), token.domainSeparator())) {
            throw new IllegalStateException("TestUSDC at " + POLYGON_USDC + " answers domain separator "
                    + Numeric.toHexString(token.contractDomainSeparator()) + ", not its own");
        }
    }

    public AnvilNode node() {
        return node;
    }

    public ChainRpc rpc() {
        return rpc;
    }

    public Web3j web3j() {
        return rpc.web3j();
    }

    public String rpcUrl() {
        return node.rpcUrl();
    }

    public long chainId() {
        return AnvilNode.CHAIN_ID;
    }

    /** ChanChannel's address, lowercase. */
    public String channelAddress() {
        return channel;
    }

    /** The devnet's TestUSDC, {@link #POLYGON_USDC}: the channel contract's token unless {@link #setUsdc} moved it. */
    public String usdcAddress() {
        return usdc;
    }

    /** EIP-3009 on the devnet's TestUSDC. */
    public UsdcAuthorizations usdcAuthorizations() {
        return new UsdcAuthorizations(rpc, usdc, chainId());
    }

    public BigInteger deployBlock() {
        return deployBlock;
    }

    public static ContractArtifact channelArtifact() {
        return CHANNEL_ARTIFACT;
    }

    public static ContractArtifact usdcArtifact() {
        return USDC_ARTIFACT;
    }

    // Node control, delegated to the node's ChainRpc

    public String snapshot() {
        return rpc.snapshot();
    }

    public void revertTo(String snapshotId) {
        rpc.revertTo(snapshotId);
    }

    public void increaseTime(long seconds) {
        rpc.increaseTime(seconds);
    }

    public void setNextBlockTimestamp(long epochSeconds) {
        rpc.setNextBlockTimestamp(epochSeconds);
    }

    public void mine() {
        rpc.mine();
    }

    public void setBalance(String address, BigInteger wei) {
        rpc.setBalance(address, wei);
    }

    public BigInteger latestBlockTimestamp() {
        return rpc.latestBlockTimestamp();
    }

    // TestUSDC

    public TransactionReceipt mint(String to, BigInteger amount) {
        return mint(usdc, to, amount);
    }

    public TransactionReceipt approve(Credentials owner, String spender, BigInteger amount) {
        return approve(usdc, owner, spender, amount);
    }

    public BigInteger balanceOf(String account) {
        return balanceOf(usdc, account);
    }

    /** Deploys another TestUSDC, from {@code deployer} (not account 0, whose nonces place the canonical contracts). */
    public String deployTestUsdc(Credentials deployer) {
        return rpc.send(deployer, null, USDC_ARTIFACT.bytecode()).getContractAddress();
    }

    public TransactionReceipt mint(String token, String to, BigInteger amount) {
        return rpc.send(DevnetAccounts.deployer(), token, encode("mint", new Address(to), new Uint256(amount)));
    }

    public TransactionReceipt approve(String token, Credentials owner, String spender, BigInteger amount) {
        return rpc.send(owner, token, encode("approve", new Address(spender), new Uint256(amount)));
    }

    public BigInteger balanceOf(String token, String account) {
        return uint(rpc.call(account, token, encode("balanceOf", new Address(account))));
    }

    // ChanChannel transactions

    public OpenedChannel open(Credentials consumer, String provider, BigInteger amount, long durationSeconds) {
        return openedIn(rpc.awaitSuccess(submitOpen(consumer, provider, amount, durationSeconds)));
    }

    /** Broadcasts {@code open} without waiting (several opens in one block need automine off); returns the tx hash. */
    public String submitOpen(Credentials consumer, String provider, BigInteger amount, long durationSeconds) {
        return rpc.submit(consumer, channel, encode("open", new Address(provider), new Uint256(amount),
                new Uint256(durationSeconds)));
    }

    /** The channel an {@code open} transaction created, read from its ChannelOpened log. */
    public OpenedChannel openedIn(TransactionReceipt receipt) {
        Log log = logs(receipt, "ChannelOpened").getFirst();
        List<Type> data = FunctionReturnDecoder.decode(log.getData(), uint256s(2));
        return new OpenedChannel(log.getTopics().get(1), topicAddress(log, 2), topicAddress(log, 3),
                (BigInteger) data.get(0).getValue(), (BigInteger) data.get(1).getValue(), receipt, log);
    }

    /** Mints the deposit to the consumer, approves it to the channel contract, and opens. */
    public OpenedChannel fundAndOpen(Credentials consumer, String provider, BigInteger amount, long durationSeconds) {
        mint(consumer.getAddress(), amount);
        approve(consumer, channel, amount);
        return open(consumer, provider, amount, durationSeconds);
    }

    public TransactionReceipt claim(Credentials provider, String channelId, BigInteger amount, BigInteger nonce,
                                    byte[] signature) {
        return rpc.send(provider, channel, claimCall(channelId, amount, nonce, signature));
    }

    /** Simulates {@code claim} from {@code from} without sending it. */
    public CallOutcome callClaim(String from, String channelId, BigInteger amount, BigInteger nonce, byte[] signature) {
        return rpc.simulate(from, channel, claimCall(channelId, amount, nonce, signature));
    }

    public TransactionReceipt close(Credentials consumer, String channelId) {
        return rpc.send(consumer, channel, encode("close", new Bytes32(Numeric.hexStringToByteArray(channelId))));
    }

    public TransactionReceipt cooperativeClose(Credentials consumer, String channelId, BigInteger finalAmount,
                                               byte[] providerSignature) {
        return rpc.send(consumer, channel, cooperativeCloseCall(channelId, finalAmount, providerSignature));
    }

    /** Simulates {@code cooperativeClose} from {@code from} without sending it. */
    public CallOutcome callCooperativeClose(String from, String channelId, BigInteger finalAmount,
                                            byte[] providerSignature) {
        return rpc.simulate(from, channel, cooperativeCloseCall(channelId, finalAmount, providerSignature));
    }

    public TransactionReceipt setFee(Credentials owner, String recipient, BigInteger bps) {
        return rpc.send(owner, channel, encode("setFee", new Address(recipient), new Uint256(bps)));
    }

    public TransactionReceipt setUsdc(Credentials owner, String token) {
        return rpc.send(owner, channel, encode("setUsdc", new Address(token)));
    }

    // ChanChannel views

    public ChannelState getChannel(String channelId) {
        String result = rpc.call(channel, channel, encode("getChannel", new Bytes32(Numeric.hexStringToByteArray(channelId))));
        List<Type> values = FunctionReturnDecoder.decode(result, List.of(
                ref(new TypeReference<Address>() { }), ref(new TypeReference<Address>() { }),
                ref(new TypeReference<Uint256>() { }), ref(new TypeReference<Uint256>() { }),
                ref(new TypeReference<Uint256>() { })));
        return new ChannelState(values.get(0).toString(), values.get(1).toString(), (BigInteger) values.get(2).getValue(),
                (BigInteger) values.get(3).getValue(), (BigInteger) values.get(4).getValue());
    }

    public BigInteger getBalance(String channelId) {
        return uint(rpc.call(channel, channel, encode("getBalance", new Bytes32(Numeric.hexStringToByteArray(channelId)))));
    }

    public BigInteger feeBps() {
        return uint(rpc.call(channel, channel, encode("feeBps")));
    }

    /** The token the channel contract moves now, lowercase. */
    public String usdc() {
        return FunctionReturnDecoder.decodeAddress(rpc.call(channel, channel, encode("usdc"))).toLowerCase();
    }

    public String feeRecipient() {
        return FunctionReturnDecoder.decodeAddress(rpc.call(channel, channel, encode("feeRecipient")));
    }

    public BigInteger nonces(String consumer) {
        return uint(rpc.call(channel, channel, encode("nonces", new Address(consumer))));
    }

    public byte[] domainSeparator() {
        return Numeric.hexStringToByteArray(rpc.call(channel, channel, encode("domainSeparator")));
    }

    // Signing for this deployment

    public byte[] signVoucher(Credentials consumer, String channelId, BigInteger amount, BigInteger nonce) {
        byte[] domain = ChannelSignatures.domainSeparator(chainId(), channel);
        return ChannelSignatures.sign(ChannelSignatures.voucherDigest(domain, channelId, amount, nonce), consumer);
    }

    public byte[] signCloseAuthorization(Credentials provider, String channelId, BigInteger finalAmount) {
        byte[] domain = ChannelSignatures.domainSeparator(chainId(), channel);
        return ChannelSignatures.sign(ChannelSignatures.closeAuthorizationDigest(domain, channelId, finalAmount), provider);
    }

    // Logs

    /** Names of the ChanChannel events in a receipt, in log order. */
    public List<String> eventNames(TransactionReceipt receipt) {
        return receipt.getLogs().stream()
                .filter(log -> channel.equalsIgnoreCase(log.getAddress()))
                .map(log -> eventsByTopic.getOrDefault(log.getTopics().getFirst(), "unknown"))
                .toList();
    }

    /** The receipt's ChanChannel logs of one event, in log order. */
    public List<Log> logs(TransactionReceipt receipt, String eventName) {
        return receipt.getLogs().stream()
                .filter(log -> channel.equalsIgnoreCase(log.getAddress()))
                .filter(log -> eventName.equals(eventsByTopic.get(log.getTopics().getFirst())))
                .toList();
    }

    /** The single uint256 in a log's data (ChannelClaimed, ChannelClosed, FeePaid). */
    public static BigInteger amountOf(Log log) {
        return Numeric.toBigInt(log.getData());
    }

    public static String topicAddress(Log log, int index) {
        return "0x" + log.getTopics().get(index).substring(26).toLowerCase();
    }

    private String claimCall(String channelId, BigInteger amount, BigInteger nonce, byte[] signature) {
        return encode("claim", new Bytes32(Numeric.hexStringToByteArray(channelId)), new Uint256(amount),
                new Uint256(nonce), new DynamicBytes(signature));
    }

    private String cooperativeCloseCall(String channelId, BigInteger finalAmount, byte[] providerSignature) {
        return encode("cooperativeClose", new Bytes32(Numeric.hexStringToByteArray(channelId)), new Uint256(finalAmount),
                new DynamicBytes(providerSignature));
    }

    private static BigInteger nonceOf(ChainRpc rpc, String address) {
        return Numeric.toBigInt((String) rpc.raw("eth_getTransactionCount", address, "pending"));
    }

    private static String encode(String name, Type<?>... args) {
        return FunctionEncoder.encode(new Function(name, List.of(args), List.of()));
    }

    private static BigInteger uint(String result) {
        return Numeric.toBigInt(result);
    }

    private static List<TypeReference<Type>> uint256s(int count) {
        List<TypeReference<Type>> types = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            types.add(ref(new TypeReference<Uint256>() { }));
        }
        return types;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static TypeReference<Type> ref(TypeReference<?> reference) {
        return (TypeReference) reference;
    }
}
