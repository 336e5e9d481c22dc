package io.chanledger.projections.rebuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.domain.chain.ChainRef;
import io.chanledger.domain.channel.ChannelClaimed;
import io.chanledger.domain.channel.ChannelClosed;
import io.chanledger.domain.channel.ChannelEvent;
import io.chanledger.domain.channel.ChannelExpired;
import io.chanledger.domain.channel.ChannelOpenConfirmed;
import io.chanledger.domain.channel.ChannelOpened;
import io.chanledger.domain.channel.CloseAuthorized;
import io.chanledger.domain.channel.CloseKind;
import io.chanledger.domain.channel.ExcessReturned;
import io.chanledger.domain.channel.HoldRaised;
import io.chanledger.domain.channel.RequestSettled;
import io.chanledger.domain.channel.VoucherAccepted;
import io.chanledger.domain.contract.FeeUpdated;
import io.chanledger.storage.EventStoreMapper;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class ChannelEventDecoderTest {

    private static final BigInteger UINT256_MAX = BigInteger.TWO.pow(256).subtract(BigInteger.ONE);
    private static final String VOUCHER = VoucherAccepted.class.getName();
    private static final String OPENED = ChannelOpened.class.getName();
    private static final String CLOSED = ChannelClosed.class.getName();

    private final ObjectMapper mapper = EventStoreMapper.create();
    private final ChannelEventDecoder decoder = new ChannelEventDecoder(mapper);
    private final Random random = new Random(20261124L);

    @Test
    void readsEveryChannelEventAsTheEventStoresMapperDoesWithoutTheMapper() throws Exception {
        List<Supplier<ChannelEvent>> events = List.of(this::opened, this::confirmed, this::voucher, this::holdRaised,
                this::settled, this::claimed, this::expired, this::closed, this::closeAuthorized, this::excessReturned);
        Set<Class<?>> covered = new HashSet<>();
        for (int i = 0; i < 20_000; i++) {
            ChannelEvent event = events.get(i % events.size()).get();
            byte[] stored = mapper.writeValueAsBytes(event);
            String type = event.getClass().getName();

            String channelId = i % 3 == 0 ? null : i % 3 == 1 ? new String(event.channelId()) : id(32);
            assertThat(decoder.decodeWithoutMapper(type, stored, channelId))
                    .as(new String(stored, StandardCharsets.UTF_8))
                    .isEqualTo(event).isEqualTo(mapper.readValue(stored, event.getClass()));
            Object decoded = decoder.decode(type, stored, channelId);
            assertThat(decoded).isEqualTo(event);
            if (i % 3 == 1) {
                assertThat(((ChannelEvent) decoded).channelId()).as("the aggregate identifier's String, not a copy").isSameAs(channelId);
            }
            covered.add(event.getClass());
        }
        assertThat(covered).isEqualTo(Set.copyOf(ChannelEvent.TYPES));
    }

    @Test
    void readsVouchersRecordedBeforeMeteringWithoutTheMapper() throws Exception {
        byte[] stored = ("{\"channelId\":\"0x01\",\"amount\":\"5\",\"nonce\":\"2\",\"signature\":\"0xab\","
                + "\"increment\":\"3\",\"acceptedAt\":1795553746}").getBytes(StandardCharsets.UTF_8);

        VoucherAccepted expected = new VoucherAccepted("0x01", BigInteger.valueOf(5), BigInteger.TWO, "0xab",
                BigInteger.valueOf(3), 1_795_553_746L);
        assertThat(decoder.decodeWithoutMapper(VOUCHER, stored, "0x01")).isEqualTo(expected)
                .isEqualTo(mapper.readValue(stored, VoucherAccepted.class));
    }

    @Test
    void leavesEveryOtherFormToTheMapperAndReadsItAsTheMapperDoes() throws Exception {
        String voucher = "{\"channelId\":\"0x01\",\"amount\":%s,\"nonce\":\"2\",\"signature\":\"0xab\","
                + "\"increment\":\"3\",\"acceptedAt\":%s%s}";
        List<String> otherForms = List.of(
                voucher.formatted("5", "1795553746", ""),                        // uint256 as a JSON number
                voucher.formatted("\"+5\"", "1795553746", ""),                   // a sign the mapper's form never has
                voucher.formatted("\" 5\"", "1795553746", ""),
                voucher.formatted("\"\"", "1795553746", ""),
                voucher.formatted("\"5\"", "\"1795553746\"", ""),                // a long as a string
                voucher.formatted("\"5\"", "null", ""),                          // null for a primitive
                voucher.formatted("\"5\"", "1795553746", ",\"memo\":\"x\""),    // a field the record does not have
                voucher.formatted("\"5\"", "1795553746", ",\"amount\":\"6\""),  // a field twice
                voucher.formatted("\"5\"", "99999999999999999999", ""),          // beyond a long
                voucher.formatted("\"5\"", "1795553746", ",\"holdUntil\":1.5"));
        for (String form : otherForms) {
            byte[] stored = form.getBytes(StandardCharsets.UTF_8);
            assertThat(decoder.decodeWithoutMapper(VOUCHER, stored, "0x01")).as(form).isNull();
            assertSameAsMapper(VOUCHER, VoucherAccepted.class, stored);
        }
        String expired = "{\"channelId\":\"0x01\",\"expiry\":7,\"chainTime\":8}";  // a primitive missing
        assertThat(decoder.decodeWithoutMapper(ChannelExpired.class.getName(), bytes(expired), "0x01")).isNull();
        assertSameAsMapper(ChannelExpired.class.getName(), ChannelExpired.class, bytes(expired));
        String closed = "{\"channelId\":\"0x01\",\"refund\":\"0\",\"kind\":\"%s\",\"chainRef\":null}";
        for (String kind : List.of("cooperative", "SOMETIMES", "0")) {
            assertThat(decoder.decodeWithoutMapper(CLOSED, bytes(closed.formatted(kind)), "0x01")).isNull();
            assertSameAsMapper(CLOSED, ChannelClosed.class, bytes(closed.formatted(kind)));
        }
    }

    @Test
    void failsWhereTheMapperFails() {
        String opened = "{\"channelId\":\"0x01\",\"consumer\":\"0xc\",\"provider\":\"0xp\",\"deposit\":\"1\","
                + "\"expiry\":1,\"chainRef\":%s,\"provisional\":false,\"claimedAtOpen\":\"0\"}";
        // a negative log index is refused by ChainRef's constructor; the second is not JSON
        for (String form : List.of(opened.formatted("{\"blockNumber\":1,\"blockHash\":\"0x\",\"txHash\":\"0x\",\"logIndex\":-1}"),
                opened.formatted("{\"blockNumber\":1,"), "[]")) {
            assertThatThrownBy(() -> mapper.readValue(bytes(form), ChannelOpened.class)).as(form).isNotNull();
            assertThatThrownBy(() -> decoder.decode(OPENED, bytes(form), "0x01")).as(form)
                    .isInstanceOf(java.io.IOException.class);
        }
    }

    @Test
    void decodesOnlyChannelEvents() throws Exception {
        String fee = FeeUpdated.class.getName();
        assertThat(decoder.decodes(fee)).isFalse();
        assertThat(decoder.decode(fee, bytes("{}"), "0x01")).isNull();
        assertThat(ChannelEvent.TYPES).allSatisfy(type -> assertThat(decoder.decodes(type.getName())).isTrue());
    }

    private void assertSameAsMapper(String type, Class<?> javaType, byte[] stored) throws Exception {
        Object expected;
        try {
            expected = mapper.readValue(stored, javaType);
        } catch (java.io.IOException e) {
            assertThatThrownBy(() -> decoder.decode(type, stored, "0x01")).isInstanceOf(e.getClass());
            return;
        }
        assertThat(decoder.decode(type, stored, "0x01")).isEqualTo(expected);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private ChannelOpened opened() {
        return new ChannelOpened(id(32), id(20), id(20), uint(), random.nextLong(), maybeChainRef(),
                random.nextBoolean(), uint());
    }

    private ChannelOpenConfirmed confirmed() {
        return new ChannelOpenConfirmed(id(32), id(20), id(20), uint(), random.nextLong(), chainRef());
    }

    private VoucherAccepted voucher() {
        boolean metered = random.nextBoolean();
        return new VoucherAccepted(id(32), uint(), uint(), id(65), uint(), random.nextLong(), metered ? uint() : null,
                metered ? random.nextLong() : null, metered ? uint() : null);
    }

    private HoldRaised holdRaised() {
        return new HoldRaised(id(32), uint(), uint(), random.nextLong());
    }

    private RequestSettled settled() {
        return new RequestSettled(id(32), uint(), uint(), uint(), uint(), random.nextLong());
    }

    private ChannelClaimed claimed() {
        return new ChannelClaimed(id(32), id(20), uint(), uint(), uint(), chainRef());
    }

    private ChannelExpired expired() {
        return new ChannelExpired(id(32), random.nextLong(), random.nextLong(), random.nextLong());
    }

    private ChannelClosed closed() {
        return new ChannelClosed(id(32), uint(), CloseKind.values()[random.nextInt(CloseKind.values().length)],
                maybeChainRef());
    }

    private CloseAuthorized closeAuthorized() {
        return new CloseAuthorized(id(32), uint(), random.nextBoolean() ? id(65) : null);
    }

    private ExcessReturned excessReturned() {
        return new ExcessReturned(id(32), id(20), uint(), chainRef());
    }

    private ChainRef maybeChainRef() {
        return random.nextInt(4) == 0 ? null : chainRef();
    }

    private ChainRef chainRef() {
        return new ChainRef(random.nextLong(Long.MAX_VALUE), id(32), id(32), random.nextInt(Integer.MAX_VALUE));
    }

    private String id(int bytes) {
        byte[] value = new byte[bytes];
        random.nextBytes(value);
        return "0x" + HexFormat.of().formatHex(value);
    }

    /** From zero through every length up to 2^256 - 1, the contract's whole range. */
    private BigInteger uint() {
        return switch (random.nextInt(8)) {
            case 0 -> BigInteger.ZERO;
            case 1 -> UINT256_MAX;
            case 2 -> BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.valueOf(random.nextInt(3) - 1));
            default -> new BigInteger(random.nextInt(1, 257), random);
        };
    }
}
