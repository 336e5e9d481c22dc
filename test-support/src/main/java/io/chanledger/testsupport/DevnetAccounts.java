package io.chanledger.testsupport;

import java.util.List;
import java.util.stream.IntStream;

import org.web3j.crypto.Bip32ECKeyPair;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.crypto.MnemonicUtils;

/**
 * Test wallets: anvil's ten default accounts (account 0 deploys the contracts) and the wallets
 * of the EIP-712 test vectors, whose private key is keccak256 of their label.
 */
public final class DevnetAccounts {

    /** Anvil's (and Hardhat's) published default mnemonic; these keys guard nothing. */
    public static final String DEFAULT_MNEMONIC = "test test test test test test test test test test test junk";
    public static final int ANVIL_ACCOUNT_COUNT = 10;

    public static final Credentials CONSUMER_1 = labelled("consumer-1");
    public static final Credentials PROVIDER_1 = labelled("provider-1");
    public static final Credentials STRANGER_1 = labelled("stranger-1");
    public static final Credentials FEE_RECIPIENT_1 = labelled("fee-recipient-1");

    private static final int HARDENED = Bip32ECKeyPair.HARDENED_BIT;
    private static final List<Credentials> ANVIL = derive();

    private DevnetAccounts() {
    }

    /** Anvil default account {@code index} (0..9), funded with 10000 ETH/POL at genesis. */
    public static Credentials anvil(int index) {
        return ANVIL.get(index);
    }

    public static List<Credentials> anvilAccounts() {
        return ANVIL;
    }

    public static Credentials deployer() {
        return anvil(0);
    }

    /** The vectors' key derivation: private key = keccak256(utf8(label)). */
    public static Credentials labelled(String label) {
        return Credentials.create(Hash.sha3String(label));
    }

    private static List<Credentials> derive() {
        Bip32ECKeyPair master = Bip32ECKeyPair.generateKeyPair(MnemonicUtils.generateSeed(DEFAULT_MNEMONIC, ""));
        return IntStream.range(0, ANVIL_ACCOUNT_COUNT)
                .mapToObj(i -> Credentials.create(Bip32ECKeyPair.deriveKeyPair(master,
                        new int[] {44 | HARDENED, 60 | HARDENED, HARDENED, 0, i})))
                .toList();
    }
}
