package io.chanledger.api.provider.watchtower;

import static org.assertj.core.api.Assertions.assertThat;

import io.chanledger.api.support.TestDatabases;
import io.chanledger.api.provider.watchtower.ClaimStore.Claim;
import io.chanledger.api.provider.watchtower.ClaimStore.Status;
import java.math.BigInteger;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The watchtower's claim table on an in-memory database (H2 in PostgreSQL mode, no server), migrated by Flyway. */
class ClaimStoreTest {

    private static final String CHANNEL = "0x" + "42".repeat(32);
    private static final String PROVIDER = "0x" + "ab".repeat(20);
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    private ClaimStore store;

    @BeforeEach
    void migrate() {
        store = new ClaimStore(TestDatabases.migratedInMemory());
    }

    private Claim claim(long amount, Status status) {
        return new Claim(CHANNEL, BigInteger.valueOf(amount), PROVIDER, BigInteger.valueOf(7),
                ClaimPlanner.Reason.EXPIRY, status, 0, 0, now, null, null);
    }

    @Test
    void aClaimIsStoredAndReadBackWithUint256Amounts() {
        Claim big = claim(0, Status.PENDING);
        big = new Claim(CHANNEL, BigInteger.TWO.pow(255), PROVIDER, BigInteger.TWO.pow(200), big.reason(), big.status(),
                0, 0, now, null, null);
        store.insert(big, now);

        assertThat(store.find(CHANNEL, BigInteger.TWO.pow(255))).contains(big);
        assertThat(store.find(CHANNEL, BigInteger.ONE)).isEmpty();
    }

    @Test
    void anUpdateRecordsTheOutcomeOfAnAttempt() {
        store.insert(claim(500, Status.PENDING), now);
        Claim sent = claim(500, Status.PENDING).tried().failed()
                .with(Status.SENT, now.plusSeconds(5), "0x" + "cd".repeat(32), "no receipt yet");

        store.update(sent, now);

        assertThat(store.find(CHANNEL, BigInteger.valueOf(500))).contains(sent);
        assertThat(store.withStatus(PROVIDER, Status.SENT)).containsExactly(sent);
        assertThat(store.count(PROVIDER, Status.SENT)).isEqualTo(1);
    }

    @Test
    void theHighestMinedAmountCountsOnlyMinedAndConfirmedClaims() {
        store.insert(claim(300, Status.CONFIRMED), now);
        store.insert(claim(500, Status.MINED), now);
        store.insert(claim(900, Status.FAILED), now);

        assertThat(store.highestMined(CHANNEL)).isEqualTo(BigInteger.valueOf(500));
        assertThat(store.highestMined("0x" + "00".repeat(32))).isZero();
        assertThat(store.ofChannel(CHANNEL)).extracting(Claim::amount)
                .containsExactly(BigInteger.valueOf(300), BigInteger.valueOf(500), BigInteger.valueOf(900));
    }

    @Test
    void aLongErrorIsCutToWhatTheColumnHolds() {
        store.insert(claim(1, Status.PENDING), now);
        store.update(claim(1, Status.PENDING).with(Status.PENDING, now, null, "x".repeat(5_000)), now);

        assertThat(store.find(CHANNEL, BigInteger.ONE).orElseThrow().lastError()).hasSize(1_000);
    }
}
