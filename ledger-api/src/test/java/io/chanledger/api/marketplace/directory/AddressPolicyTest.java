package io.chanledger.api.marketplace.directory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AddressPolicyTest {

    /** What the tests through HTTP name too: each must be refused, whatever the table holds. */
    static final List<String> REQUIRED = List.of("198.18.0.1", "198.19.255.254", "198.51.100.7", "203.0.113.9",
            "64:ff9b::a00:1", "64:ff9b::808:808", "64:ff9b:1::1", "100.64.0.1", "100.127.255.254", "192.0.0.1",
            "192.0.0.9", "2001:db8::1", "fc00::1", "fdff:ffff::1", "fe80::1", "::ffff:10.0.0.1", "::ffff:192.168.1.1",
            "::ffff:127.0.0.1", "::10.0.0.1", "::192.168.1.1", "224.0.0.1", "239.255.255.255", "ff02::1", "ff0e::1",
            "0.0.0.0", "0.1.2.3", "240.0.0.1", "255.255.255.254", "255.255.255.255", "127.0.0.1", "127.255.0.1",
            "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "192.0.2.2", "::1", "::",
            "2002:c0a8:101::1", "2001::1", "100::1", "3fff::1", "5f00::1", "fec0::1");

    private static final List<String> PUBLIC = List.of("8.8.8.8", "1.1.1.1", "100.128.0.1", "100.63.255.255",
            "198.17.255.255", "198.20.0.0", "203.0.114.1", "198.51.99.255", "192.0.1.255", "9.255.255.255",
            "223.255.255.255", "2606:4700:4700::1111", "2a00:1450:4001::1", "::ffff:8.8.8.8", "64:ff9c::1");

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static AddressPolicy strict(List<InetAddress> own, AddressBlock... refused) {
        return new AddressPolicy(false, List.of(refused), InetAddress::getAllByName, () -> own);
    }

    private static boolean refused(AddressPolicy policy, String literal) {
        try {
            policy.resolve(literal);
            return false;
        } catch (AddressPolicy.Refused e) {
            return true;
        }
    }

    /** The first and the last address of {@code block}. */
    private static List<InetAddress> ends(AddressBlock block) {
        byte[] first = block.network().clone();
        int bits = first.length * 8;
        BigInteger low = new BigInteger(1, first).shiftRight(bits - block.prefixLength()).shiftLeft(bits
                - block.prefixLength());
        BigInteger high = low.or(BigInteger.ONE.shiftLeft(bits - block.prefixLength()).subtract(BigInteger.ONE));
        return List.of(fromBits(low, first.length), fromBits(high, first.length));
    }

    private static InetAddress fromBits(BigInteger value, int length) {
        byte[] raw = value.toByteArray();
        byte[] bytes = new byte[length];
        int copied = Math.min(raw.length, length);
        System.arraycopy(raw, raw.length - copied, bytes, length - copied, copied);
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Every block's both ends, as literals (an IPv4-mapped block's ends read as IPv4 addresses, as Java reads them). */
    static List<String> everyBlocksEnds() {
        List<String> literals = new ArrayList<>();
        for (AddressBlock block : SpecialAddresses.BLOCKS) {
            ends(block).forEach(a -> literals.add(a.getHostAddress()));
        }
        return literals;
    }

    @Test
    void bothEndsOfEveryBlockOfTheTableAreRefused() {
        AddressPolicy policy = strict(List.of());
        for (AddressBlock block : SpecialAddresses.BLOCKS) {
            for (InetAddress end : ends(block)) {
                assertThat(refused(policy, end.getHostAddress())).as("%s of %s", end, block).isTrue();
            }
        }
        assertThat(SpecialAddresses.BLOCKS).hasSizeGreaterThanOrEqualTo(55);
    }

    @Test
    void theRangesTheIssueNamedAndTheirIpv4MappedAndCompatibleFormsAreRefusedAndPublicNeighboursAreNot() {
        AddressPolicy policy = strict(List.of());
        for (String literal : REQUIRED) {
            assertThat(refused(policy, literal)).as(literal).isTrue();
        }
        for (String literal : PUBLIC) {
            assertThat(refused(policy, literal)).as(literal).isFalse();
        }
    }

    @Test
    void theRefusalNamesTheBlockForTheOperator() {
        assertThatThrownBy(() -> strict(List.of()).resolve("198.18.0.1"))
                .isInstanceOf(AddressPolicy.Refused.class)
                .hasMessage("host 198.18.0.1 resolves to 198.18.0.1, in the special-purpose block 198.18.0.0/15 "
                        + "(Benchmarking, RFC 2544)");
    }

    @Test
    void anAddressOfThisMachineIsRefusedWhateverItsRange() {
        AddressPolicy policy = strict(List.of(address("93.184.215.14"), address("2a00:1450:4001::1")));

        assertThatThrownBy(() -> policy.resolve("93.184.215.14")).isInstanceOf(AddressPolicy.Refused.class)
                .hasMessageContaining("an address of this machine");
        assertThat(refused(policy, "[2a00:1450:4001::1]")).isTrue();
        assertThat(refused(policy, "93.184.215.15")).isFalse();
    }

    @Test
    void theMachinesInterfacesAreListedAndTheirAddressesRefused() {
        List<InetAddress> own = AddressPolicy.interfaceAddresses();
        assertThat(own).anySatisfy(a -> assertThat(a.isLoopbackAddress()).isTrue());

        AddressPolicy policy = new AddressPolicy(false, List.of());
        for (InetAddress mine : own) {
            String literal = mine.getHostAddress().replaceAll("%.*", "");
            assertThat(refused(policy, literal)).as(literal).isTrue();
        }
    }

    @Test
    void theOperatorsOwnBlocksAreRefused() {
        AddressPolicy policy = strict(List.of(), AddressBlock.parse("203.0.114.0/24", "refused"),
                AddressBlock.parse("2a00:1450::/32", "refused"));

        assertThatThrownBy(() -> policy.resolve("203.0.114.77")).isInstanceOf(AddressPolicy.Refused.class)
                .hasMessageContaining("chan.marketplace.refused-addresses 203.0.114.0/24");
        assertThat(refused(policy, "2a00:1450:4001::1")).isTrue();
        assertThat(refused(policy, "203.0.115.1")).isFalse();
    }

    @Test
    void aNameWithOneRefusedAddressAmongOthersIsRefusedAndANameIsAskedOnce() {
        AtomicInteger lookups = new AtomicInteger();
        AddressPolicy policy = new AddressPolicy(false, List.of(), host -> {
            lookups.incrementAndGet();
            return new InetAddress[] {address("8.8.8.8"), address("10.0.0.1")};
        }, List::of);

        assertThatThrownBy(() -> policy.resolve("mixed.example")).isInstanceOf(AddressPolicy.Refused.class)
                .hasMessageContaining("10.0.0.1");
        assertThat(lookups).hasValue(1);
    }

    @Test
    void aNameThatDoesNotResolveAndMachineAddressesThatCannotBeListedAreRefused() {
        AddressPolicy unresolved = new AddressPolicy(false, List.of(), host -> {
            throw new UnknownHostException(host);
        }, List::of);
        assertThatThrownBy(() -> unresolved.resolve("nowhere.example")).isInstanceOf(AddressPolicy.Refused.class)
                .hasMessage("host nowhere.example does not resolve");

        AddressPolicy blind = new AddressPolicy(false, List.of(), InetAddress::getAllByName, () -> {
            throw new IllegalStateException("no interfaces");
        });
        assertThat(refused(blind, "8.8.8.8")).isTrue();
    }

    @Test
    void allowingPrivateAddressesLetsEveryAddressThroughAndStillResolvesOnce() throws Exception {
        AddressPolicy open = new AddressPolicy(true, List.of());

        assertThat(open.resolve("127.0.0.1")).containsExactly(address("127.0.0.1"));
        assertThat(open.resolve("localhost")).allSatisfy(a -> assertThat(a.isLoopbackAddress()).isTrue());
        assertThat(open.resolve("[::1]")).containsExactly(address("::1"));
    }

    @Test
    void namesOfThisMachineAreRefused() {
        AddressPolicy policy = new AddressPolicy(false, List.of());
        for (String name : new String[] {"localhost", "LOCALHOST", "localhost.", "127.1", "[::1]",
                "[::ffff:127.0.0.1]", "[0:0:0:0:0:ffff:7f00:1]"}) {
            assertThat(refused(policy, name)).as(name).isTrue();
        }
    }

    @Test
    void blocksAreLiteralsWithAPrefixThatFits() {
        for (String bad : new String[] {"10.0.0.0/33", "example.com", "10.0.0", "10.0.0.0/x", "::/129", "cafe"}) {
            assertThatThrownBy(() -> AddressBlock.parse(bad, "test")).as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        AddressBlock mapped = AddressBlock.parse("::ffff:0:0/96", "mapped");
        assertThat(mapped.network()).hasSize(16);
        assertThat(Arrays.copyOfRange(mapped.network(), 10, 12)).containsExactly(0xff, 0xff);
        assertThat(AddressBlock.parse("203.0.113.7", "one").prefixLength()).isEqualTo(32);
    }
}
