package io.chanledger.api.ledger.audit;

import io.chanledger.chain.rpc.EthApi;
import io.chanledger.domain.channel.OnChainChannel;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.FunctionReturnDecoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.utils.Numeric;

/**
 * {@link ChainReader} over the chain listener's JSON-RPC client (its retries and error
 * classification included): {@code eth_call}s of the contracts' view functions, all at the block
 * that was the latest when the reader was created.
 */
public final class ContractChainReader implements ChainReader {

    private final EthApi eth;
    private final String contract;
    private final String usdc;
    private final long block;
    private final String blockTag;

    public ContractChainReader(EthApi eth, String contract, String usdc) {
        this.eth = eth;
        this.contract = contract.toLowerCase(Locale.ROOT);
        this.usdc = usdc.toLowerCase(Locale.ROOT);
        this.block = eth.blockNumber();
        this.blockTag = "0x" + Long.toHexString(block);
    }

    @Override
    public long block() {
        return block;
    }

    @Override
    public OnChainChannel channel(String channelId) {
        List<Type> values = call(contract, new Function("getChannel", List.of(bytes32(channelId)), List.of(
                ref(new TypeReference<Address>() { }), ref(new TypeReference<Address>() { }),
                ref(new TypeReference<Uint256>() { }), ref(new TypeReference<Uint256>() { }),
                ref(new TypeReference<Uint256>() { }))));
        return new OnChainChannel(values.get(0).toString().toLowerCase(Locale.ROOT),
                values.get(1).toString().toLowerCase(Locale.ROOT), (BigInteger) values.get(2).getValue(),
                (BigInteger) values.get(3).getValue(), ((BigInteger) values.get(4).getValue()).longValueExact(), block);
    }

    @Override
    public BigInteger channelBalance(String channelId) {
        return (BigInteger) call(contract, new Function("getBalance", List.of(bytes32(channelId)),
                List.of(ref(new TypeReference<Uint256>() { })))).getFirst().getValue();
    }

    @Override
    public BigInteger tokenBalance(String account) {
        return (BigInteger) call(usdc, new Function("balanceOf", List.of(new Address(account)),
                List.of(ref(new TypeReference<Uint256>() { })))).getFirst().getValue();
    }

    private List<Type> call(String to, Function function) {
        String answer = eth.call(null, to, FunctionEncoder.encode(function), null, blockTag);
        List<Type> values = FunctionReturnDecoder.decode(answer, function.getOutputParameters());
        if (values.size() != function.getOutputParameters().size()) {
            throw new IllegalStateException(function.getName() + " on " + to + " returned nothing: is it the right contract?");
        }
        return values;
    }

    private static Bytes32 bytes32(String channelId) {
        return new Bytes32(Numeric.hexStringToByteArray(channelId));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static TypeReference<Type> ref(TypeReference<?> reference) {
        return (TypeReference) reference;
    }
}
