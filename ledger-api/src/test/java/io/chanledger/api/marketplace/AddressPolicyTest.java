package io.chanledger.api.marketplace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.URI;
import org.junit.jupiter.api.Test;

class AddressPolicyTest {

    private static boolean internal(String literal) throws Exception {
        return AddressPolicy.isInternal(InetAddress.getByName(literal));
    }

    @Test
    void internalAddressesAreRecognised() throws Exception {
        for (String address : new String[]{"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254",
                "100.64.0.1", "0.0.0.0", "224.0.0.1", "::1", "fe80::1", "fd00::1", "255.255.255.255"}) {
            assertThat(internal(address)).as(address).isTrue();
        }
        for (String address : new String[]{"8.8.8.8", "1.1.1.1", "100.128.0.1", "2606:4700:4700::1111"}) {
            assertThat(internal(address)).as(address).isFalse();
        }
    }

    @Test
    void loopbackProvidersAreRefusedUnlessAllowed() throws Exception {
        assertThatThrownBy(() -> new AddressPolicy(false).check(URI.create("http://127.0.0.1:8080")))
                .isInstanceOf(AddressPolicy.BlockedAddressException.class)
                .hasMessageContaining("internal address");
        assertThatThrownBy(() -> new AddressPolicy(false).check(URI.create("http://localhost:8080")))
                .isInstanceOf(AddressPolicy.BlockedAddressException.class);
        new AddressPolicy(true).check(URI.create("http://127.0.0.1:8080"));
    }
}
