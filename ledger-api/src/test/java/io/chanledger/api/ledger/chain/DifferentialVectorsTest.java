package io.chanledger.api.ledger.chain;

import static io.chanledger.testsupport.DevnetAccounts.CONSUMER_1;
import static io.chanledger.testsupport.DevnetAccounts.PROVIDER_1;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.chanledger.testsupport.AnvilNode;
import io.chanledger.testsupport.CallOutcome;
import io.chanledger.testsupport.Devnet;
import io.chanledger.testsupport.OpenedChannel;
import io.chanledger.domain.eip712.KnownAnswerVectors;
import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.channel.AcceptVoucher;
import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.domain.channel.SignedVoucher;
import io.chanledger.domain.channel.VoucherRejectedException;
import io.chanledger.domain.eip712.ChanTypedData;
import io.chanledger.domain.eip712.Eip712Domain;
import io.chanledger.domain.eip712.SignatureVerdict;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.axonframework.test.AxonAssertionError;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.ResultValidator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.web3j.utils.Numeric;

/**
 * The contract and the ledger judge every voucher of the shared vectors the same way. The vectors'
 * channel-1 is opened for real (consumer-1's first open at block time 1700000000 on a fresh node);
 * the contract's verdict is a simulated {@code claim} from the provider, the ledger's is the voucher
 * path of the API: strict parsing, the contract's signature rule, then the Channel aggregate itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DifferentialVectorsTest {

    private static final long VECTOR_TIMESTAMP = 1_700_000_000L;
    private static final BigInteger DEPOSIT = BigInteger.valueOf(10_000_000);
    private static final long DURATION = 86_400;

    private AnvilNode node;
    private Devnet devnet;
    private OpenedChannel channel;

    @BeforeAll
    void openChannelOne() {
        node = AnvilNode.start("--timestamp", Long.toString(VECTOR_TIMESTAMP - 1_000));
        devnet = Devnet.deploy(node);
        devnet.mint(CONSUMER_1.getAddress(), DEPOSIT);
        devnet.approve(CONSUMER_1, devnet.channelAddress(), DEPOSIT);
        devnet.setNextBlockTimestamp(VECTOR_TIMESTAMP);
        channel = devnet.open(CONSUMER_1, PROVIDER_1.getAddress(), DEPOSIT, DURATION);
    }

    @AfterAll
    void stopNode() {
        node.close();
    }

    @Test
    void opensTheVectorsChannel() {
        assertThat(channel.channelId()).isEqualTo(KnownAnswerVectors.byId("channelIds", "channel-1").path("channelId").asText());
        assertThat(channel.expiry()).isEqualTo(BigInteger.valueOf(VECTOR_TIMESTAMP + DURATION));
        assertThat(devnet.channelAddress()).isEqualToIgnoringCase(
                KnownAnswerVectors.root().path("domain").path("verifyingContract").asText());
    }

    @Test
    void contractAndLedgerAgreeOnEveryVoucher() {
        Map<String, String> disagreements = new LinkedHashMap<>();
        int cases = 0;
        for (JsonNode vector : KnownAnswerVectors.list("vouchers")) {
            String id = vector.path("id").asText();
            BigInteger amount = new BigInteger(vector.path("amount").asText());
            CallOutcome onChain = devnet.callClaim(PROVIDER_1.getAddress(), vector.path("channelId").asText(), amount,
                    new BigInteger(vector.path("nonce").asText()),
                    Numeric.hexStringToByteArray(vector.path("signature").asText()));
            boolean contractAccepts = onChain.success();
            boolean ledgerAccepts = ledgerAccepts(vector);

            boolean aboveDeposit = amount.compareTo(DEPOSIT) > 0;
            assertThat(contractAccepts).as("contract on " + id).isEqualTo(vector.path("accept").asBoolean() && !aboveDeposit);
            if (aboveDeposit) {
                assertThat(onChain.error()).as("contract on " + id).isEqualTo("InvalidAmount");
            }
            if (contractAccepts != ledgerAccepts) {
                disagreements.put(id, "contract " + contractAccepts + ", ledger " + ledgerAccepts);
            }
            cases++;
        }
        assertThat(cases).isEqualTo(KnownAnswerVectors.list("vouchers").size()).isGreaterThanOrEqualTo(16);
        assertThat(disagreements).isEmpty();
    }

    /** The ledger's verdict on a fresh channel-1, as the voucher endpoint reaches it. */
    private boolean ledgerAccepts(JsonNode vector) {
        SignedVoucher voucher;
        try {
            voucher = SignedVoucher.parse(vector.path("channelId").asText(), vector.path("amount").asText(),
                    vector.path("nonce").asText(), vector.path("signature").asText());
        } catch (VoucherRejectedException malformed) {
            return false;
        }
        ChanTypedData typedData = new ChanTypedData(Eip712Domain.chan(devnet.chainId(), devnet.channelAddress()));
        if (!(voucher.verify(typedData) instanceof SignatureVerdict.Recovered recovered)) {
            return false;
        }
        AcceptVoucher command = voucher.toCommand(recovered.signer(), VECTOR_TIMESTAMP + 1);
        ResultValidator<?> result = fixture().given(openedEvent()).when(command);
        try {
            result.expectSuccessfulHandlerExecution();
            return true;
        } catch (AxonAssertionError refused) {
            result.expectException(VoucherRejectedException.class);
            return false;
        }
    }

    private ChannelOpened openedEvent() {
        ChainRef ref = new ChainRef(channel.blockNumber().longValueExact(), channel.log().getBlockHash(),
                channel.log().getTransactionHash(), channel.log().getLogIndex().intValueExact());
        return new ChannelOpened(channel.channelId(), channel.consumer().toLowerCase(Locale.ROOT),
                channel.provider().toLowerCase(Locale.ROOT), channel.deposit(), channel.expiry().longValueExact(), ref,
                false, BigInteger.ZERO);
    }

    /** A fixture of the (package-private) Channel aggregate, reached by name. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static AggregateTestFixture<?> fixture() {
        try {
            return new AggregateTestFixture(Class.forName("io.chanledger.domain.channel.ChannelAggregate"));
        } catch (ClassNotFoundException e) {
            throw new AssertionError("the Channel aggregate moved", e);
        }
    }
}
